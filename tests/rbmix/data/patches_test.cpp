#include "rbmix/data/patches.hpp"

#include <gtest/gtest.h>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

// Two 4×5 images whose pixel (r, c) of image i holds 100·i + 10·r + c.
Images numbered_images() {
  Images images{ByteMatrix(2, 20), 4, 5};
  for (Eigen::Index i = 0; i < 2; ++i)
    for (Eigen::Index r = 0; r < 4; ++r)
      for (Eigen::Index c = 0; c < 5; ++c)
        images.pixels(i, r * 5 + c) = static_cast<std::uint8_t>(100 * i + 10 * r + c);
  return images;
}

TEST(Patches, AllPositionsInOrder) {
  const ByteMatrix patches = all_patches(numbered_images(), 3);
  // (4 − 3 + 1)·(5 − 3 + 1) = 6 positions per image.
  ASSERT_EQ(patches.rows(), 12);
  ASSERT_EQ(patches.cols(), 9);
  // Image 1, top 1, left 2 is row 6 + 1·3 + 2 = 11; its pixel (2, 1) is image pixel (3, 3).
  EXPECT_EQ(patches(11, 2 * 3 + 1), 100 + 30 + 3);
  EXPECT_EQ(patches(0, 0), 0);
}

TEST(Patches, MnistShapeAndRandomPatchesAreSeededWindows) {
  const Images mnist_like{ByteMatrix::Zero(3, 784), 28, 28};
  EXPECT_EQ(all_patches(mnist_like, 5).rows(), 3 * 24 * 24);
  EXPECT_EQ(all_patches(mnist_like, 5).cols(), 25);

  const Images images = numbered_images();
  const ByteMatrix sample = random_patches(images, 2, 50, 9);
  ASSERT_EQ(sample.rows(), 50);
  EXPECT_EQ(sample, random_patches(images, 2, 50, 9));
  EXPECT_NE(sample, random_patches(images, 2, 50, 10));
  // Each drawn patch is a genuine window: its pixels step by 1 along a row and by 10 down a column.
  for (Eigen::Index k = 0; k < sample.rows(); ++k) {
    EXPECT_EQ(sample(k, 1), sample(k, 0) + 1);
    EXPECT_EQ(sample(k, 2), sample(k, 0) + 10);
  }
  EXPECT_THROW(all_patches(images, 5), InputError);
}

}  // namespace
}  // namespace rbmix
