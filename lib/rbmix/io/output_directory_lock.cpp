#include "rbmix/io/output_directory_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>

#include "rbmix/core/error.hpp"
#include "rbmix/io/output_file.hpp"

namespace rbmix {
namespace {

std::string quoted(const std::filesystem::path& directory) { return "'" + directory.string() + "'"; }

// What the holder wrote into the lock file ("process 123 on host h"), printable characters only; "another process"
// while it has not written it yet (it writes just after taking the lock).
std::string holder_of(int descriptor) {
  std::array<char, 256> buffer{};
  const ssize_t read = ::pread(descriptor, buffer.data(), buffer.size() - 1, 0);
  std::string holder;
  for (ssize_t k = 0; k < read; ++k)
    if (buffer[static_cast<std::size_t>(k)] >= ' ' && buffer[static_cast<std::size_t>(k)] <= '~')
      holder.push_back(buffer[static_cast<std::size_t>(k)]);
  return holder.empty() ? "another process" : holder;
}

bool same_file(int descriptor, const std::filesystem::path& file) {
  struct stat opened {};
  struct stat named {};
  return ::fstat(descriptor, &opened) == 0 && ::stat(file.c_str(), &named) == 0 && opened.st_dev == named.st_dev &&
         opened.st_ino == named.st_ino;
}

}  // namespace

OutputDirectoryLock::OutputDirectoryLock(const std::filesystem::path& directory) : directory_(directory) {
  std::error_code unknown;  // an existence that cannot be told: then the directory is not ours to remove
  made_directory_ = !std::filesystem::exists(directory, unknown) && !unknown;
  prepare_output_directory(directory);
  const std::filesystem::path file = directory / output_directory_lock_name;
  for (;;) {
    const int descriptor = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0644);
    if (descriptor < 0)
      throw InputError("output directory " + quoted(directory) + ": cannot create its lock file " +
                       output_directory_lock_name + " (" + std::strerror(errno) + ")");
    if (::flock(descriptor, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      const std::string holder = holder_of(descriptor);
      ::close(descriptor);
      if (error == EWOULDBLOCK)
        throw InputError("output directory " + quoted(directory) + " is in use by " + holder +
                         ", which is writing into it; one run writes into a directory at a time (wait for it to "
                         "finish, or give another output directory)");
      throw InputError("output directory " + quoted(directory) + ": cannot lock " + output_directory_lock_name + " (" +
                       std::strerror(error) + ")");
    }
    // A holder that finished between our open and our lock removed the file we locked; a run that came after it
    // may hold a new one under the same name. Only the file the name leads to counts.
    if (same_file(descriptor, file)) {
      descriptor_ = descriptor;
      break;
    }
    ::close(descriptor);
  }
  std::array<char, 128> host{};
  if (::gethostname(host.data(), host.size() - 1) != 0) host[0] = '\0';
  const std::string holder =
      "process " + std::to_string(::getpid()) + (host[0] != '\0' ? std::string(" on host ") + host.data() : "") + "\n";
  if (::ftruncate(descriptor_, 0) != 0 ||
      ::pwrite(descriptor_, holder.data(), holder.size(), 0) != static_cast<ssize_t>(holder.size())) {
    const int error = errno;
    ::unlink(file.c_str());
    ::close(descriptor_);
    throw InputError("output directory " + quoted(directory) + ": cannot write its lock file " +
                     output_directory_lock_name + " (" + std::strerror(error) + ")");
  }
}

OutputDirectoryLock::~OutputDirectoryLock() {
  // Removed while still locked: a run that opened the file before it went sees that it locked a removed file and
  // opens the name again.
  ::unlink((directory_ / output_directory_lock_name).c_str());
  ::close(descriptor_);
  if (made_directory_) ::rmdir(directory_.c_str());  // only if empty: a run that wrote nothing leaves no directory
}

}  // namespace rbmix
