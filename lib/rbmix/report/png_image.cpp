#include "rbmix/report/png_image.hpp"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "rbmix/core/error.hpp"
#include "rbmix/io/output_file.hpp"

namespace rbmix {
namespace {

constexpr std::uint8_t kBorderGrey = 128;

}  // namespace

GreyImage tile_images(const MatrixF& images, Eigen::Index height, Eigen::Index width, Eigen::Index columns) {
  require(height >= 1 && width >= 1 && columns >= 1, "image grid: height, width and columns must be positive");
  require(images.rows() >= 1, "image grid: no images to draw");
  require(images.cols() == height * width, "image grid: images of " + std::to_string(images.cols()) +
                                               " values cannot be drawn as " + std::to_string(height) + "×" +
                                               std::to_string(width));
  const Eigen::Index tiles_across = std::min(columns, images.rows());
  const Eigen::Index tiles_down = (images.rows() + columns - 1) / columns;
  GreyImage image;
  image.width = tiles_across * (width + 1) + 1;
  image.height = tiles_down * (height + 1) + 1;
  image.pixels.assign(static_cast<std::size_t>(image.width * image.height), kBorderGrey);
  for (Eigen::Index tile = 0; tile < images.rows(); ++tile) {
    const Eigen::Index top = (tile / columns) * (height + 1) + 1;
    const Eigen::Index left = (tile % columns) * (width + 1) + 1;
    for (Eigen::Index y = 0; y < height; ++y)
      for (Eigen::Index x = 0; x < width; ++x) {
        const float value = std::clamp(images(tile, y * width + x), 0.0f, 1.0f);
        image.pixels[static_cast<std::size_t>((top + y) * image.width + left + x)] =
            static_cast<std::uint8_t>(std::lround(255.0f * value));
      }
  }
  return image;
}

void write_png(const std::filesystem::path& file, const GreyImage& image) {
  require(image.height >= 1 && image.width >= 1 &&
              image.pixels.size() == static_cast<std::size_t>(image.height * image.width),
          file.string() + ": the image's pixels do not match its size");
  png_image description{};
  description.version = PNG_IMAGE_VERSION;
  description.width = static_cast<png_uint_32>(image.width);
  description.height = static_cast<png_uint_32>(image.height);
  description.format = PNG_FORMAT_GRAY;
  // Encoded in memory (a first call sizes the buffer), then written by the one output writer, which knows how to
  // treat devices, links and full disks.
  const auto encode = [&](void* buffer, png_alloc_size_t& size) {
    const int encoded = png_image_write_to_memory(&description, buffer, &size, 0, image.pixels.data(),
                                                  static_cast<png_int_32>(image.width), nullptr);
    if (encoded == 0) {
      const std::string reason = description.message;
      png_image_free(&description);
      throw InputError(file.string() + ": cannot encode the PNG image (" + reason + ")");
    }
  };
  png_alloc_size_t size = 0;
  encode(nullptr, size);
  std::string bytes(size, '\0');
  encode(bytes.data(), size);
  bytes.resize(size);
  write_output_file(file, bytes);
}

}  // namespace rbmix
