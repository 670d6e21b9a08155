#include "rbmix/data/mnist.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rbmix/core/error.hpp"
#include "support/idx_writer.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;

TEST(Mnist, FindsPlainOrGzipFilesAndPairsImagesWithLabels) {
  const testing::TemporaryDirectory directory;
  testing::write_plain(directory / "train-images-idx3-ubyte", testing::idx_bytes({3, 1, 2}, "abcdef"));
  testing::write_gzip(directory / "train-labels-idx1-ubyte.gz", testing::idx_bytes({3}, "\x01\x02\x03"));
  const LabelledImages train = load_mnist(directory.path(), MnistPart::train);
  EXPECT_EQ(train.images.pixels.rows(), 3);
  EXPECT_EQ(train.images.pixels(2, 1), 'f');
  EXPECT_EQ(train.labels, (std::vector<std::uint8_t>{1, 2, 3}));

  EXPECT_THAT([&] { load_mnist(directory.path(), MnistPart::test); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("t10k-images-idx3-ubyte.gz")));
  testing::write_gzip(directory / "t10k-images-idx3-ubyte.gz", testing::idx_bytes({2, 1, 1}, "ab"));
  testing::write_gzip(directory / "t10k-labels-idx1-ubyte.gz", testing::idx_bytes({3}, "\x01\x02\x03"));
  EXPECT_THAT([&] { load_mnist(directory.path(), MnistPart::test); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("2 images but 3 labels")));
}

}  // namespace
}  // namespace rbmix
