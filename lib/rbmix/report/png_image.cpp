#include "rbmix/report/png_image.hpp"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <string>

#include "rbmix/core/error.hpp"
#include "rbmix/io/output_file.hpp"

namespace rbmix {
namespace {

constexpr std::uint8_t kBorderGrey = 128;

void append_to_string(png_structp png, png_bytep data, png_size_t length) {
  static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), length);
}

void check_keyword(const std::filesystem::path& file, const std::string& keyword) {
  const bool printable = std::all_of(keyword.begin(), keyword.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte >= 32 && byte <= 126) || byte >= 161;
  });
  require(!keyword.empty() && keyword.size() <= 79 && printable && keyword.front() != ' ' && keyword.back() != ' ',
          file.string() + ": PNG text keyword '" + keyword + "' must be 1 to 79 printable characters");
}

// libpng reports errors by longjmp back to the setjmp here, so this function creates no object with a destructor;
// returns false after such an error.
bool encode_with_libpng(png_structp png, png_infop info, const GreyImage& image, png_bytepp rows, png_textp chunks,
                        int chunk_count, std::string* bytes) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_write_fn(png, bytes, append_to_string, nullptr);
  png_set_IHDR(png, info, static_cast<png_uint_32>(image.width), static_cast<png_uint_32>(image.height), 8,
               PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (chunk_count > 0) png_set_text(png, info, chunks, chunk_count);
  png_set_rows(png, info, rows);
  png_write_png(png, info, PNG_TRANSFORM_IDENTITY, nullptr);
  return true;
}

// The whole file in memory, so that the one output writer (which knows how to treat devices, links and full disks)
// writes it.
std::string encode_png(const std::filesystem::path& file, const GreyImage& image, const PngText& text) {
  std::string bytes;
  std::vector<png_text> chunks(text.size());
  for (std::size_t k = 0; k < text.size(); ++k) {
    chunks[k].compression = PNG_TEXT_COMPRESSION_NONE;
    chunks[k].key = const_cast<char*>(text[k].first.c_str());
    chunks[k].text = const_cast<char*>(text[k].second.c_str());
    chunks[k].text_length = text[k].second.size();
  }
  std::vector<png_bytep> rows(static_cast<std::size_t>(image.height));
  for (Eigen::Index y = 0; y < image.height; ++y)
    rows[static_cast<std::size_t>(y)] =
        const_cast<png_bytep>(image.pixels.data() + static_cast<std::size_t>(y * image.width));
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  const bool encoded = info && encode_with_libpng(png, info, image, rows.data(), chunks.data(),
                                                  static_cast<int>(chunks.size()), &bytes);
  png_destroy_write_struct(&png, info ? &info : nullptr);
  if (!encoded) throw InputError(file.string() + ": cannot encode the PNG image");
  return bytes;
}

}  // namespace

Eigen::Index grid_gap(Eigen::Index scale) { return scale <= 1 ? 1 : std::max<Eigen::Index>(2, scale / 4); }

Eigen::Index automatic_tile_scale(Eigen::Index height, Eigen::Index width) {
  const Eigen::Index side = std::max<Eigen::Index>(1, std::min(height, width));
  return (kMinimumTileSide + side - 1) / side;
}

std::uint8_t grey_level(float value) {
  return static_cast<std::uint8_t>(std::lround(255.0f * std::clamp(value, 0.0f, 1.0f)));
}

GreyImage tile_images(const MatrixF& images, Eigen::Index height, Eigen::Index width, const ImageGrid& grid) {
  require(height >= 1 && width >= 1 && grid.columns >= 1, "image grid: height, width and columns must be positive");
  require(grid.scale >= 0, "image grid: the scale must not be negative");
  require(images.rows() >= 1, "image grid: no images to draw");
  require(images.cols() == height * width, "image grid: images of " + std::to_string(images.cols()) +
                                               " values cannot be drawn as " + std::to_string(height) + "×" +
                                               std::to_string(width));
  const Eigen::Index scale = grid.scale > 0 ? grid.scale : automatic_tile_scale(height, width);
  const Eigen::Index gap = grid_gap(scale);
  const Eigen::Index tile_height = height * scale, tile_width = width * scale;
  const Eigen::Index tiles_across = std::min(grid.columns, images.rows());
  const Eigen::Index tiles_down = (images.rows() + grid.columns - 1) / grid.columns;
  GreyImage image;
  image.width = tiles_across * (tile_width + gap) + gap;
  image.height = tiles_down * (tile_height + gap) + gap;
  image.pixels.assign(static_cast<std::size_t>(image.width * image.height), kBorderGrey);
  for (Eigen::Index tile = 0; tile < images.rows(); ++tile) {
    const Eigen::Index top = (tile / grid.columns) * (tile_height + gap) + gap;
    const Eigen::Index left = (tile % grid.columns) * (tile_width + gap) + gap;
    for (Eigen::Index y = 0; y < tile_height; ++y)
      for (Eigen::Index x = 0; x < tile_width; ++x) {
        image.pixels[static_cast<std::size_t>((top + y) * image.width + left + x)] =
            grey_level(images(tile, (y / scale) * width + x / scale));
      }
  }
  return image;
}

void write_png(const std::filesystem::path& file, const GreyImage& image, const PngText& text) {
  require(image.height >= 1 && image.width >= 1 &&
              image.pixels.size() == static_cast<std::size_t>(image.height * image.width),
          file.string() + ": the image's pixels do not match its size");
  for (const auto& [keyword, value] : text) check_keyword(file, keyword);
  write_output_file(file, encode_png(file, image, text));
}

}  // namespace rbmix
