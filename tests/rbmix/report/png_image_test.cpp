#include "rbmix/report/png_image.hpp"

#include <gtest/gtest.h>
#include <png.h>

#include "rbmix/core/error.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

constexpr std::uint8_t kBorder = 128;

TEST(PngImage, TilesImagesInRowsWithABorder) {
  // Three 2×3 images, two per grid row: 2 × (3 + 1) + 1 = 9 wide, 2 × (2 + 1) + 1 = 7 high.
  MatrixF images(3, 6);
  images << 0, 1, 0.5f, 0, 0, 0,  //
      1, 1, 1, 1, 1, 1,           //
      -2, 3, 0, 0, 0, 0;          // clamped to [0, 1]
  const GreyImage image = tile_images(images, 2, 3, 2);
  ASSERT_EQ(image.width, 9);
  ASSERT_EQ(image.height, 7);
  const auto at = [&](Eigen::Index y, Eigen::Index x) { return image.pixels[static_cast<std::size_t>(y * 9 + x)]; };
  EXPECT_EQ(at(0, 0), kBorder);
  EXPECT_EQ(at(1, 1), 0);
  EXPECT_EQ(at(1, 2), 255);
  EXPECT_EQ(at(1, 3), 128);  // round(255 · 0.5)
  EXPECT_EQ(at(1, 4), kBorder);
  EXPECT_EQ(at(2, 5), 255);  // second image, second row
  EXPECT_EQ(at(4, 1), 0);    // third image starts the second grid row
  EXPECT_EQ(at(4, 2), 255);
  EXPECT_EQ(at(5, 6), kBorder);  // no fourth image: border grey
}

TEST(PngImage, WritesAPngThatLibpngReadsBack) {
  const testing::TemporaryDirectory directory;
  const MatrixF images = MatrixF::NullaryExpr(5, 12, [](Eigen::Index row, Eigen::Index column) {
    return static_cast<float>((row * 12 + column) % 11) / 10.0f;
  });
  const GreyImage image = tile_images(images, 3, 4, 3);
  write_png(directory / "grid.png", image);
  png_image read{};
  read.version = PNG_IMAGE_VERSION;
  ASSERT_NE(png_image_begin_read_from_file(&read, (directory / "grid.png").c_str()), 0) << read.message;
  read.format = PNG_FORMAT_GRAY;
  ASSERT_EQ(read.width, static_cast<png_uint_32>(image.width));
  ASSERT_EQ(read.height, static_cast<png_uint_32>(image.height));
  std::vector<std::uint8_t> pixels(PNG_IMAGE_SIZE(read));
  ASSERT_NE(png_image_finish_read(&read, nullptr, pixels.data(), 0, nullptr), 0) << read.message;
  EXPECT_EQ(pixels, image.pixels);
  EXPECT_FALSE(std::filesystem::exists(directory / "grid.png.tmp"));
}

TEST(PngImage, RefusesBadShapesAndUnwritableFiles) {
  EXPECT_THROW(tile_images(MatrixF::Zero(2, 6), 2, 2, 1), InputError);
  EXPECT_THROW(tile_images(MatrixF::Zero(0, 4), 2, 2, 1), InputError);
  EXPECT_THROW(tile_images(MatrixF::Zero(2, 4), 2, 2, 0), InputError);
  const GreyImage image = tile_images(MatrixF::Zero(1, 4), 2, 2, 1);
  try {
    write_png("/nonexistent-directory/grid.png", image);
    FAIL() << "wrote into a missing directory";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("/nonexistent-directory/grid.png"), std::string::npos);
  }
}

}  // namespace
}  // namespace rbmix
