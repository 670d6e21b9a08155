#include "rbmix/io/output_directory_lock.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "support/input_error_message.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;
using testing::input_error_message;
using testing::TemporaryDirectory;

std::string lock_file_text(const std::filesystem::path& directory) {
  std::ifstream file(directory / output_directory_lock_name);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string in_use_by(const std::filesystem::path& directory, pid_t holder) {
  return "output directory '" + directory.string() + "' is in use by process " + std::to_string(holder);
}

TEST(OutputDirectoryLock, OneHolderAtATimeNamedInTheRefusal) {
  const TemporaryDirectory directory;
  {
    const OutputDirectoryLock first(directory.path());
    EXPECT_THAT(lock_file_text(directory.path()), HasSubstr("process " + std::to_string(::getpid())));
    // A second lock of the same directory, as a second run would take it (flock locks conflict between open files,
    // in one process as between two).
    EXPECT_THAT(input_error_message([&] { OutputDirectoryLock second(directory.path()); }),
                HasSubstr(in_use_by(directory.path(), ::getpid())));
  }
  EXPECT_FALSE(std::filesystem::exists(directory / output_directory_lock_name)) << "the released lock stays behind";
  const OutputDirectoryLock again(directory.path());
}

// A holder killed by SIGKILL runs no destructor: its lock file stays, naming a dead process, but the kernel released
// the lock with the process, and the next run takes the directory.
TEST(OutputDirectoryLock, AHolderKilledLeavesAStaleFileThatTheNextRunTakesOver) {
  const TemporaryDirectory directory;
  int locked[2];
  ASSERT_EQ(::pipe(locked), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const OutputDirectoryLock held(directory.path());
    const char byte = 1;
    if (::write(locked[1], &byte, 1) != 1) ::_exit(1);
    for (;;) ::pause();
  }
  char byte = 0;
  ASSERT_EQ(::read(locked[0], &byte, 1), 1);
  EXPECT_THAT(input_error_message([&] { OutputDirectoryLock refused(directory.path()); }),
              HasSubstr(in_use_by(directory.path(), child)));
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  ::close(locked[0]);
  ::close(locked[1]);
  EXPECT_THAT(lock_file_text(directory.path()), HasSubstr("process " + std::to_string(child)));
  const OutputDirectoryLock taken_over(directory.path());
  EXPECT_THAT(lock_file_text(directory.path()), HasSubstr("process " + std::to_string(::getpid())));
}

// A run refused after it took the directory (an option checked late) leaves no directory it made; one that wrote
// keeps it, and a directory that was there stays.
TEST(OutputDirectoryLock, MakesTheDirectoryAndRemovesItWhenNothingWasWritten) {
  const TemporaryDirectory directory;
  { const OutputDirectoryLock lock(directory / "made" / "empty"); }
  EXPECT_FALSE(std::filesystem::exists(directory / "made" / "empty"));
  {
    const OutputDirectoryLock lock(directory / "written");
    std::ofstream(directory / "written" / "run.json") << "{}";
  }
  EXPECT_TRUE(std::filesystem::exists(directory / "written" / "run.json"));
  { const OutputDirectoryLock lock(directory.path()); }
  EXPECT_TRUE(std::filesystem::is_directory(directory.path()));
  std::ofstream(directory / "file") << "x";
  EXPECT_THAT(input_error_message([&] { OutputDirectoryLock lock(directory / "file"); }),
              HasSubstr("output directory '" + (directory / "file").string() + "' cannot be created"));
}

}  // namespace
}  // namespace rbmix
