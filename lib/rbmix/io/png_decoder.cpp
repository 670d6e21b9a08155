#include "rbmix/io/png_decoder.hpp"

#include <png.h>

#include <csetjmp>
#include <cstring>
#include <vector>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

// Where libpng reads from and where its error message goes (it reports errors by longjmp, so the message is copied
// into a fixed buffer rather than a std::string whose destructor could be skipped).
struct PngReadState {
  std::string_view bytes;
  std::size_t offset = 0;
  char message[160] = "";
};

void read_from_memory(png_structp png, png_bytep out, png_size_t length) {
  auto* state = static_cast<PngReadState*>(png_get_io_ptr(png));
  if (length > state->bytes.size() - state->offset) png_error(png, "the data ends early (truncated file)");
  std::memcpy(out, state->bytes.data() + state->offset, length);
  state->offset += length;
}

void record_error(png_structp png, png_const_charp message) {
  auto* state = static_cast<PngReadState*>(png_get_error_ptr(png));
  std::strncpy(state->message, message, sizeof(state->message) - 1);
  png_longjmp(png, 1);
}

void ignore_warning(png_structp, png_const_charp) {}

struct PngHeader {
  png_uint_32 width = 0;
  png_uint_32 height = 0;
  int bit_depth = 0;
  int colour_type = 0;
};

// libpng reports errors by longjmp back to the setjmp in these two, so they create no object with a destructor;
// they return false after such an error.
bool read_png_header(png_structp png, png_infop info, PngHeader* header) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_read_info(png, info);
  header->width = png_get_image_width(png, info);
  header->height = png_get_image_height(png, info);
  header->bit_depth = png_get_bit_depth(png, info);
  header->colour_type = png_get_color_type(png, info);
  if (header->bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  return true;
}

bool read_png_rows(png_structp png, png_infop info, png_bytepp rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_read_image(png, rows);
  png_read_end(png, info);
  return true;
}

const char* colour_type_name(int colour_type) {
  switch (colour_type) {
    case PNG_COLOR_TYPE_GRAY_ALPHA:
      return "grey with alpha";
    case PNG_COLOR_TYPE_PALETTE:
      return "palette colour";
    case PNG_COLOR_TYPE_RGB:
      return "RGB colour";
    case PNG_COLOR_TYPE_RGB_ALPHA:
      return "RGBA colour";
    default:
      return "an unknown colour type";
  }
}

// Destroys the read structures however decode_png leaves.
struct PngReader {
  png_structp png = nullptr;
  png_infop info = nullptr;
  ~PngReader() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
};

}  // namespace

GreyImage decode_png(std::string_view bytes, const std::string& source) {
  constexpr std::size_t signature_size = 8;
  require(bytes.size() >= signature_size &&
              png_sig_cmp(reinterpret_cast<png_const_bytep>(bytes.data()), 0, signature_size) == 0,
          source + ": not a PNG file (the PNG signature is missing)");
  PngReadState state{bytes, 0, ""};
  PngReader reader;
  reader.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, record_error, ignore_warning);
  reader.info = reader.png ? png_create_info_struct(reader.png) : nullptr;
  require(reader.info != nullptr, source + ": cannot start the PNG decoder");
  png_set_read_fn(reader.png, &state, read_from_memory);
  PngHeader header;
  const auto failure = [&] { return source + ": corrupt PNG (" + state.message + ")"; };
  require(read_png_header(reader.png, reader.info, &header), failure);
  require(header.colour_type == PNG_COLOR_TYPE_GRAY, [&] {
    return source + ": the image is " + colour_type_name(header.colour_type) +
           "; rbmix reads greyscale PNGs without alpha (convert it first, e.g. ImageMagick's "
           "convert IN.png -colorspace Gray -alpha off OUT.png)";
  });
  require(header.bit_depth <= 8, [&] {
    return source + ": the image has " + std::to_string(header.bit_depth) +
           "-bit grey levels; rbmix reads 8-bit (or 1-, 2-, 4-bit) greyscale PNGs";
  });
  GreyImage image{static_cast<Eigen::Index>(header.height), static_cast<Eigen::Index>(header.width), {}};
  require(image.height > 0 && image.width > 0 && image.height * image.width <= kMaxDecodedPngPixels, [&] {
    return source + ": the image is " + std::to_string(image.width) + " × " + std::to_string(image.height) +
           " pixels; rbmix reads images of at most " + std::to_string(kMaxDecodedPngPixels) + " pixels";
  });
  image.pixels.resize(static_cast<std::size_t>(image.height * image.width));
  std::vector<png_bytep> rows(static_cast<std::size_t>(image.height));
  for (Eigen::Index y = 0; y < image.height; ++y)
    rows[static_cast<std::size_t>(y)] = image.pixels.data() + static_cast<std::size_t>(y * image.width);
  require(read_png_rows(reader.png, reader.info, rows.data()), failure);
  return image;
}

}  // namespace rbmix
