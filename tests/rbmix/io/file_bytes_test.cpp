#include "rbmix/io/file_bytes.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <fstream>
#include <thread>

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

// 9 MiB: read into one buffer advised onto huge pages (advise_huge_pages takes buffers of 8 MiB and more).
TEST(FileBytes, ReadsALargeFileWhole) {
  const testing::TemporaryDirectory directory;
  std::string bytes(9 << 20, '\0');
  for (std::size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<char>((k * 2654435761U) >> 13);
  std::ofstream(directory / "large.bin", std::ios::binary) << bytes;
  EXPECT_EQ(read_file_bytes(directory / "large.bin"), bytes);
}

TEST(FileBytes, ReadsAnEmptyFile) {
  const testing::TemporaryDirectory directory;
  std::ofstream(directory / "empty.bin", std::ios::binary).flush();
  EXPECT_EQ(read_file_bytes(directory / "empty.bin"), "");
}

// Not a regular file: its size is unknown, so every byte comes through the stream.
TEST(FileBytes, ReadsAPipe) {
  const testing::TemporaryDirectory directory;
  const std::filesystem::path pipe = directory / "pipe";
  ASSERT_EQ(mkfifo(pipe.c_str(), 0600), 0);
  const std::string bytes = "written into a pipe\n";
  std::thread writer([&] { std::ofstream(pipe, std::ios::binary) << bytes; });
  const std::string read = read_file_bytes(pipe);
  writer.join();
  EXPECT_EQ(read, bytes);
}

TEST(FileBytes, FailuresNameTheFile) {
  const testing::TemporaryDirectory directory;
  EXPECT_THAT([&] { read_file_bytes(directory / "absent"); }, ThrowsMessage<InputError>(HasSubstr("absent")));
  EXPECT_THAT([&] { read_file_bytes(directory.path()); }, ThrowsMessage<InputError>(HasSubstr("is a directory")));
}

}  // namespace
}  // namespace rbmix
