#include "rbmix/io/png_decoder.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <png.h>

#include <cstdint>
#include <string>
#include <vector>

#include "rbmix/core/error.hpp"
#include "rbmix/io/file_bytes.hpp"
#include "rbmix/report/png_image.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

// decode_png gives back the pixels write_png wrote, whatever their values.
TEST(PngDecoder, DecodesWhatWritePngWrote) {
  const testing::TemporaryDirectory directory;
  GreyImage image{3, 5, {}};
  for (int k = 0; k < 15; ++k) image.pixels.push_back(static_cast<std::uint8_t>(k * 17));
  write_png(directory / "grey.png", image);
  const GreyImage read = decode_png(read_file_bytes(directory / "grey.png"), "grey.png");
  EXPECT_EQ(read.height, 3);
  EXPECT_EQ(read.width, 5);
  EXPECT_EQ(read.pixels, image.pixels);
}

// Colour, alpha and 16-bit images, written by libpng's own simplified writer, are refused by name rather than
// converted; so are files that are not PNG, truncated and corrupted ones.
TEST(PngDecoder, RefusesColourAlphaDeepAndCorruptImages) {
  using ::testing::HasSubstr;
  const testing::TemporaryDirectory directory;
  const auto write_with_format = [&](const std::string& name, png_uint_32 format) {
    png_image out{};
    out.version = PNG_IMAGE_VERSION;
    out.width = 2;
    out.height = 2;
    out.format = format;
    const std::vector<std::uint16_t> pixels(PNG_IMAGE_SIZE(out), 1000);  // large enough for 16-bit samples too
    EXPECT_NE(png_image_write_to_file(&out, (directory / name).c_str(), 0, pixels.data(), 0, nullptr), 0);
    return read_file_bytes(directory / name);
  };
  const auto refuses = [](const std::string& bytes, const std::string& message) {
    EXPECT_THAT([&] { decode_png(bytes, "x.png"); }, ::testing::ThrowsMessage<InputError>(HasSubstr(message)));
  };
  refuses(write_with_format("rgb.png", PNG_FORMAT_RGB), "x.png: the image is RGB colour; rbmix reads greyscale");
  refuses(write_with_format("rgba.png", PNG_FORMAT_RGBA), "the image is RGBA colour");
  refuses(write_with_format("ga.png", PNG_FORMAT_GA), "the image is grey with alpha");
  refuses(write_with_format("deep.png", PNG_FORMAT_LINEAR_Y), "16-bit grey levels");
  refuses("GIF89a", "x.png: not a PNG file");

  GreyImage image{4, 4, std::vector<std::uint8_t>(16, 7)};
  write_png(directory / "grey.png", image);
  const std::string bytes = read_file_bytes(directory / "grey.png");
  refuses(bytes.substr(0, bytes.size() - 20), "x.png: corrupt PNG (");
  std::string corrupted = bytes;
  corrupted[corrupted.find("IDAT") + 6] ^= 0x55;  // a data byte: the chunk's CRC no longer matches
  refuses(corrupted, "x.png: corrupt PNG (");
}

}  // namespace
}  // namespace rbmix
