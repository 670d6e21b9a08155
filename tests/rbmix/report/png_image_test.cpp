#include "rbmix/report/png_image.hpp"

#include <gtest/gtest.h>
#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <string>

#include "rbmix/core/error.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

constexpr std::uint8_t kBorder = 128;

TEST(PngImage, TilesImagesInRowsWithABorder) {
  // Three 2×3 images at scale 1, two per grid row: 2 × (3 + 1) + 1 = 9 wide, 2 × (2 + 1) + 1 = 7 high.
  MatrixF images(3, 6);
  images << 0, 1, 0.5f, 0, 0, 0,  //
      1, 1, 1, 1, 1, 1,           //
      -2, 3, 0, 0, 0, 0;          // clamped to [0, 1]
  const GreyImage image = tile_images(images, 2, 3, {2, 1});
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
  const GreyImage image = tile_images(images, 3, 4, {3, 1});
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
  EXPECT_THROW(tile_images(MatrixF::Zero(2, 6), 2, 2, {1}), InputError);
  EXPECT_THROW(tile_images(MatrixF::Zero(0, 4), 2, 2, {1}), InputError);
  EXPECT_THROW(tile_images(MatrixF::Zero(2, 4), 2, 2, {0}), InputError);
  EXPECT_THROW(tile_images(MatrixF::Zero(2, 4), 2, 2, {1, -1}), InputError);
  const GreyImage image = tile_images(MatrixF::Zero(1, 4), 2, 2, {1});
  EXPECT_THROW(write_png(std::filesystem::temp_directory_path() / "never.png", image, {{"", "empty keyword"}}),
               InputError);
  try {
    write_png("/nonexistent-directory/grid.png", image);
    FAIL() << "wrote into a missing directory";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("/nonexistent-directory/grid.png"), std::string::npos);
  }
}

// A 4×4 bars-and-stripes tile is scaled up to 32 pixels: each value a block of 8×8 equal pixels (nearest neighbour,
// so a binary picture stays binary), with 2-pixel gaps.
TEST(PngImage, ScalesSmallTilesUpToAReadableSizeWithGaps) {
  EXPECT_EQ(automatic_tile_scale(4, 4), 8);
  EXPECT_EQ(automatic_tile_scale(28, 28), 2);
  EXPECT_EQ(automatic_tile_scale(3, 40), 11);  // the shorter side decides
  EXPECT_EQ(automatic_tile_scale(64, 64), 1);
  EXPECT_EQ(grid_gap(1), 1);
  EXPECT_EQ(grid_gap(8), 2);
  EXPECT_EQ(grid_gap(16), 4);
  MatrixF images = MatrixF::Zero(3, 16);
  images(0, 0) = 1;   // first tile: top-left value white
  images(1, 15) = 1;  // second tile: bottom-right value white
  images.row(2).setConstant(0.5f);
  const GreyImage image = tile_images(images, 4, 4, {2});
  const Eigen::Index tile = 32, gap = 2;
  ASSERT_EQ(image.width, 2 * (tile + gap) + gap);
  ASSERT_EQ(image.height, 2 * (tile + gap) + gap);
  const auto at = [&](Eigen::Index y, Eigen::Index x) {
    return image.pixels[static_cast<std::size_t>(y * image.width + x)];
  };
  for (Eigen::Index y = 0; y < 8; ++y)
    for (Eigen::Index x = 0; x < 8; ++x) {
      EXPECT_EQ(at(gap + y, gap + x), 255);                               // the whole 8×8 block
      EXPECT_EQ(at(gap + 24 + y, 2 * gap + tile + 24 + x), 255);         // second tile's last block
      EXPECT_EQ(at(2 * gap + tile + y, gap + x), 128);                   // third tile, grey 0.5
    }
  EXPECT_EQ(at(gap, gap + 8), 0);                    // the next block of the first tile
  EXPECT_EQ(at(gap + 8, gap), 0);
  EXPECT_EQ(at(0, 0), kBorder);                      // gaps around and between the tiles
  EXPECT_EQ(at(gap + 5, gap + tile), kBorder);
  EXPECT_EQ(at(gap + 5, gap + tile + 1), kBorder);
  EXPECT_EQ(at(gap + tile + 1, gap + 5), kBorder);
  EXPECT_EQ(at(2 * gap + tile + 5, 2 * gap + tile + 5), kBorder);  // no fourth tile
}

// The caption travels with the picture: libpng reads the text chunks back as written.
TEST(PngImage, WritesTextChunksThatLibpngReadsBack) {
  const testing::TemporaryDirectory directory;
  const GreyImage image = tile_images(MatrixF::Ones(2, 4), 2, 2, {2});
  const PngText text = {{"Description", "binary samples, one per tile"}, {"Source", "run/model.npz"}};
  write_png(directory / "captioned.png", image, text);
  FILE* file = std::fopen((directory / "captioned.png").c_str(), "rb");
  ASSERT_NE(file, nullptr);
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  ASSERT_EQ(setjmp(png_jmpbuf(png)), 0);
  png_init_io(png, file);
  png_read_info(png, info);
  png_textp chunks = nullptr;
  const int count = png_get_text(png, info, &chunks, nullptr);
  PngText read;
  for (int k = 0; k < count; ++k) read.emplace_back(chunks[k].key, std::string(chunks[k].text, chunks[k].text_length));
  EXPECT_EQ(png_get_image_width(png, info), static_cast<png_uint_32>(image.width));
  png_destroy_read_struct(&png, &info, nullptr);
  std::fclose(file);
  EXPECT_EQ(read, text);
}

}  // namespace
}  // namespace rbmix
