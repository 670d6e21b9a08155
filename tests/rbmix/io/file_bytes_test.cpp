#include "rbmix/io/file_bytes.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rbmix/core/error.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

TEST(FileBytes, WritesAndReadsBackEveryByteLeavingNoTemporary) {
  const testing::TemporaryDirectory directory;
  std::string bytes;
  for (int value = 0; value < 256; ++value) bytes += static_cast<char>(value);
  write_file_bytes(directory / "all.bin", bytes);
  EXPECT_EQ(read_file_bytes(directory / "all.bin"), bytes);
  write_file_bytes(directory / "all.bin", "shorter");
  EXPECT_EQ(read_file_bytes(directory / "all.bin"), "shorter");
  EXPECT_FALSE(std::filesystem::exists(directory / "all.bin.partial"));
}

TEST(FileBytes, FailuresNameTheFile) {
  const testing::TemporaryDirectory directory;
  EXPECT_THAT([&] { read_file_bytes(directory / "absent"); }, ThrowsMessage<InputError>(HasSubstr("absent")));
  EXPECT_THAT([&] { read_file_bytes(directory.path()); }, ThrowsMessage<InputError>(HasSubstr("is a directory")));
  EXPECT_THAT([&] { write_file_bytes(directory / "no/such/dir/x.npy", "x"); },
              ThrowsMessage<InputError>(HasSubstr("x.npy: cannot open for writing")));
}

}  // namespace
}  // namespace rbmix
