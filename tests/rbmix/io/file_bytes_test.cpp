#include "rbmix/io/file_bytes.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "rbmix/core/error.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

TEST(FileBytes, ReadsEveryByte) {
  const testing::TemporaryDirectory directory;
  std::string bytes;
  for (int value = 0; value < 256; ++value) bytes += static_cast<char>(value);
  std::ofstream(directory / "all.bin", std::ios::binary) << bytes;
  EXPECT_EQ(read_file_bytes(directory / "all.bin"), bytes);
}

TEST(FileBytes, FailuresNameTheFile) {
  const testing::TemporaryDirectory directory;
  EXPECT_THAT([&] { read_file_bytes(directory / "absent"); }, ThrowsMessage<InputError>(HasSubstr("absent")));
  EXPECT_THAT([&] { read_file_bytes(directory.path()); }, ThrowsMessage<InputError>(HasSubstr("is a directory")));
}

}  // namespace
}  // namespace rbmix
