#pragma once
// OutputDirectoryLock: one writer per output directory. Every command that writes into a directory (train, sample,
// mixing, isl, mrf, demo, the experiments and their merge) holds this lock for its whole run, so that a second run into
// the same directory is refused at once instead of mixing its files with the first one's (two grids' journals, one
// run's model beside another's learning curve).
//
// The lock is an exclusive advisory lock (flock(2)) on DIR/.rbmix.lock, which holds the process id and host name of
// its holder. The kernel releases it when the holder's process ends in any way, a crash or kill -9 included, so a
// lock file left behind by a dead process is stale and the next run takes it over; a live holder makes the
// constructor throw InputError naming the directory and the holding process. The destructor removes the file, so a
// finished run leaves the directory as it wrote it, and a directory the lock made and nothing was written into (a
// run refused after it started) is removed too.
#include <filesystem>

namespace rbmix {

// The lock file's name inside the locked directory.
inline constexpr const char* output_directory_lock_name = ".rbmix.lock";

class OutputDirectoryLock {
 public:
  // Makes `directory` (and its parents) if needed and locks it. Throws InputError if it cannot be made, if another
  // process holds it ("output directory 'DIR' is in use by process 123 on host H ...") or if the lock file cannot
  // be made.
  explicit OutputDirectoryLock(const std::filesystem::path& directory);
  ~OutputDirectoryLock();
  OutputDirectoryLock(const OutputDirectoryLock&) = delete;
  OutputDirectoryLock& operator=(const OutputDirectoryLock&) = delete;

  const std::filesystem::path& directory() const { return directory_; }

 private:
  std::filesystem::path directory_;
  bool made_directory_ = false;
  int descriptor_ = -1;
};

}  // namespace rbmix
