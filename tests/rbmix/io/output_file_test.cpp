#include "rbmix/io/output_file.hpp"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "rbmix/core/error.hpp"
#include "rbmix/io/file_bytes.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

// Linux's memory devices: 1,3 is /dev/null, 1,7 is /dev/full.
constexpr unsigned kMemoryDeviceMajor = 1;
constexpr unsigned kNullMinor = 3;
constexpr unsigned kFullMinor = 7;

// A private copy of a memory device when the test may make device nodes (root), so that a writer that wrongly
// replaces its output can only damage the copy; otherwise the system's node, which such a writer cannot replace.
std::filesystem::path memory_device(const testing::TemporaryDirectory& directory, const std::string& name,
                                    unsigned minor) {
  const std::filesystem::path copy = directory / name;
  if (::mknod(copy.c_str(), S_IFCHR | 0666, makedev(kMemoryDeviceMajor, minor)) == 0) return copy;
  return "/dev/" + name;
}

bool is_character_device(const std::filesystem::path& file) {
  struct stat status;
  return ::lstat(file.c_str(), &status) == 0 && S_ISCHR(status.st_mode);
}

int entries_in(const std::filesystem::path& directory) {
  return static_cast<int>(std::distance(std::filesystem::directory_iterator(directory), {}));
}

TEST(OutputFile, ReplacesARegularFileWholeLeavingNoTemporary) {
  const testing::TemporaryDirectory directory;
  std::string bytes;
  for (int value = 0; value < 256; ++value) bytes += static_cast<char>(value);
  write_output_file(directory / "all.bin", bytes);
  EXPECT_EQ(read_file_bytes(directory / "all.bin"), bytes);
  write_output_file(directory / "all.bin", "shorter");
  EXPECT_EQ(read_file_bytes(directory / "all.bin"), "shorter");
  EXPECT_EQ(entries_in(directory.path()), 1);
}

TEST(OutputFile, KeepsThePermissionsOfAFileItReplaces) {
  const testing::TemporaryDirectory directory;
  write_output_file(directory / "shared.csv", "a");
  std::filesystem::permissions(directory / "shared.csv", std::filesystem::perms::owner_read |
                                                             std::filesystem::perms::owner_write |
                                                             std::filesystem::perms::others_read);
  write_output_file(directory / "shared.csv", "b");
  EXPECT_EQ(std::filesystem::status(directory / "shared.csv").permissions(), std::filesystem::perms::owner_read |
                                                                                 std::filesystem::perms::owner_write |
                                                                                 std::filesystem::perms::others_read);
}

TEST(OutputFile, WritesThroughTheNullDeviceAndLeavesItADevice) {
  const testing::TemporaryDirectory directory;
  const std::filesystem::path null = memory_device(directory, "null", kNullMinor);
  write_output_file(null, "discarded");
  EXPECT_TRUE(is_character_device(null)) << null << " was replaced";
  if (null.parent_path() == directory.path()) {
    EXPECT_EQ(entries_in(directory.path()), 1);  // no temporary beside it
  }
}

TEST(OutputFile, AFullDeviceIsAnErrorNamingIt) {
  const testing::TemporaryDirectory directory;
  const std::filesystem::path full = memory_device(directory, "full", kFullMinor);
  EXPECT_THAT([&] { write_output_file(full, "does not fit"); },
              ThrowsMessage<InputError>(HasSubstr(full.string() + ": write failed (No space left on device)")));
  EXPECT_TRUE(is_character_device(full)) << full << " was replaced";
}

TEST(OutputFile, WritesThroughAFifoToItsReader) {
  const testing::TemporaryDirectory directory;
  const std::filesystem::path fifo = directory / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] {
    std::ifstream stream(fifo, std::ios::binary);
    received.assign(std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>());
  });
  write_output_file(fifo, "through the pipe");
  reader.join();
  EXPECT_EQ(received, "through the pipe");
  EXPECT_EQ(std::filesystem::status(fifo).type(), std::filesystem::file_type::fifo);
}

// /dev/stdout is /proc/self/fd/1: output goes into the open descriptor itself, so with `> log` it continues the
// log where the shell's redirection stands instead of overwriting it from offset 0.
TEST(OutputFile, WritesThroughThisProcesssOwnDescriptors) {
  const testing::TemporaryDirectory directory;
  write_output_file(directory / "log", "before ");
  const int descriptor = ::open((directory / "log").c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  ASSERT_GE(descriptor, 0);
  write_output_file("/dev/fd/" + std::to_string(descriptor), "data");
  ::close(descriptor);
  EXPECT_EQ(read_file_bytes(directory / "log"), "before data");

  int pipe_ends[2];
  ASSERT_EQ(::pipe(pipe_ends), 0);
  write_output_file("/proc/self/fd/" + std::to_string(pipe_ends[1]), "piped");
  ::close(pipe_ends[1]);
  char received[16] = {};
  EXPECT_EQ(::read(pipe_ends[0], received, sizeof received), 5);
  ::close(pipe_ends[0]);
  EXPECT_STREQ(received, "piped");
}

TEST(OutputFile, KeepsASymbolicLinkAndWritesItsTarget) {
  const testing::TemporaryDirectory directory;
  std::filesystem::create_directories(directory / "results");
  write_output_file(directory / "results/model.npz", "old");
  std::filesystem::create_symlink("results/model.npz", directory / "latest.npz");
  std::filesystem::create_symlink("latest.npz", directory / "link-to-link.npz");
  write_output_file(directory / "link-to-link.npz", "new");
  EXPECT_TRUE(std::filesystem::is_symlink(directory / "latest.npz"));
  EXPECT_TRUE(std::filesystem::is_symlink(directory / "link-to-link.npz"));
  EXPECT_EQ(read_file_bytes(directory / "results/model.npz"), "new");
  // A link whose target does not exist yet makes the target.
  std::filesystem::create_symlink("results/later.npz", directory / "dangling.npz");
  write_output_file(directory / "dangling.npz", "made");
  EXPECT_TRUE(std::filesystem::is_symlink(directory / "dangling.npz"));
  EXPECT_EQ(read_file_bytes(directory / "results/later.npz"), "made");
}

TEST(OutputFile, ALinkCycleIsAnError) {
  const testing::TemporaryDirectory directory;
  std::filesystem::create_symlink("b", directory / "a");
  std::filesystem::create_symlink("a", directory / "b");
  EXPECT_THAT([&] { write_output_file(directory / "a", "x"); },
              ThrowsMessage<InputError>(HasSubstr("Too many levels of symbolic links")));
}

TEST(OutputFile, FailuresNameThePath) {
  const testing::TemporaryDirectory directory;
  EXPECT_THAT([&] { write_output_file(directory / "no/such/dir/x.npy", "x"); },
              ThrowsMessage<InputError>(HasSubstr("x.npy: cannot open for writing")));
  EXPECT_THAT([&] { write_output_file(directory.path(), "x"); },
              ThrowsMessage<InputError>(HasSubstr("is a directory")));
  EXPECT_EQ(entries_in(directory.path()), 0);
}

}  // namespace
}  // namespace rbmix
