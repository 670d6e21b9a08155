#include "rbmix/io/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

// Linux follows at most 40 links in one path lookup (ELOOP beyond); the same bound stops a link cycle here.
constexpr int kMaximumLinkHops = 40;

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what, int error_number) {
  throw InputError(file.string() + ": " + what + " (" + std::strerror(error_number) + ")");
}

// Closes a descriptor once; a failure to close after a successful write is reported by the owner, not here.
class Descriptor {
 public:
  explicit Descriptor(int descriptor) : descriptor_(descriptor) {}
  ~Descriptor() {
    if (descriptor_ >= 0) ::close(descriptor_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return descriptor_; }
  // Closes now and returns close's result (errno set on failure).
  int close() {
    const int result = ::close(descriptor_);
    descriptor_ = -1;
    return result;
  }

 private:
  int descriptor_;
};

void write_all(int descriptor, std::string_view bytes, const std::filesystem::path& file) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(descriptor, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      fail(file, "write failed", errno);
    }
    if (written == 0) fail(file, "write failed", ENOSPC);
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
}

// `file` is opened; `shown` (the path the caller gave) names it in messages.
void write_through(const std::filesystem::path& file, const std::filesystem::path& shown, std::string_view bytes) {
  Descriptor descriptor(::open(file.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY));
  if (descriptor.get() < 0) fail(shown, "cannot open for writing", errno);
  write_all(descriptor.get(), bytes, shown);
  if (descriptor.close() != 0) fail(shown, "write failed on close", errno);
}

// A name no other writer (thread or process) is likely to use at the same time: the process id and 64 random bits,
// so that threads share no counter. The caller's exclusive open draws another name on the rare clash.
std::filesystem::path temporary_sibling(const std::filesystem::path& file) {
  std::random_device entropy;
  const std::uint64_t draw = (std::uint64_t{entropy()} << 32) | std::uint64_t{entropy()};
  std::filesystem::path temporary = file;
  temporary += ".partial." + std::to_string(::getpid()) + "." + std::to_string(draw);
  return temporary;
}

void sync_directory_of(const std::filesystem::path& file) {
  const std::filesystem::path directory = file.has_parent_path() ? file.parent_path() : ".";
  const int descriptor = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  // Best effort: the rename has happened; a file system that cannot sync a directory still holds the data.
  if (descriptor >= 0) {
    ::fsync(descriptor);
    ::close(descriptor);
  }
}

void write_atomically(const std::filesystem::path& file, const std::filesystem::path& shown, std::string_view bytes,
                      const struct stat* existing) {
  std::filesystem::path temporary;
  int descriptor = -1;
  while (descriptor < 0) {
    temporary = temporary_sibling(file);
    descriptor = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (descriptor < 0 && errno != EEXIST) fail(shown, "cannot open for writing", errno);
  }
  Descriptor owned(descriptor);
  try {
    if (existing != nullptr && ::fchmod(owned.get(), existing->st_mode & 07777) != 0) {
      fail(shown, "cannot keep the permissions of the existing file", errno);
    }
    write_all(owned.get(), bytes, shown);
    if (::fsync(owned.get()) != 0) fail(shown, "write failed on fsync", errno);
    if (owned.close() != 0) fail(shown, "write failed on close", errno);
    if (::rename(temporary.c_str(), file.c_str()) != 0) fail(shown, "cannot move the written file into place", errno);
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
  sync_directory_of(file);
}

// Where a chain of symbolic links ends: a path, or a link under /proc, whose links name open descriptions (a pipe,
// a terminal, a file opened by the shell) that only the kernel can follow. This process's own descriptors
// (/dev/stdout is /proc/self/fd/1) are written through directly, so output appends where the shell's
// redirection points instead of starting over at offset 0 of a new open file.
struct LinkTarget {
  std::filesystem::path path;
  bool under_proc = false;
  std::optional<int> own_descriptor;
};

std::optional<int> own_descriptor(const std::filesystem::path& directory, const std::filesystem::path& name) {
  if (directory != std::filesystem::path("/proc") / std::to_string(::getpid()) / "fd") return std::nullopt;
  const std::string text = name.string();
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stoi(text);
}

LinkTarget resolve_links(const std::filesystem::path& file) {
  std::filesystem::path resolved = file;
  for (int hop = 0;; ++hop) {
    struct stat link;
    if (::lstat(resolved.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) return {resolved, false, std::nullopt};
    if (hop == kMaximumLinkHops) fail(file, "cannot resolve the symbolic link", ELOOP);
    // The link's directory with its own links resolved: /dev/fd/1 lives in /proc/self/fd.
    std::error_code ignored;
    const std::filesystem::path directory =
        std::filesystem::weakly_canonical(std::filesystem::absolute(resolved).parent_path(), ignored);
    if (directory.has_relative_path() && *directory.relative_path().begin() == "proc")
      return {resolved, true, own_descriptor(directory, resolved.filename())};
    std::error_code error;
    const std::filesystem::path target = std::filesystem::read_symlink(resolved, error);
    if (error) fail(file, "cannot read the symbolic link", error.value());
    resolved = target.is_absolute() ? target : resolved.parent_path() / target;
  }
}

}  // namespace

void write_output_file(const std::filesystem::path& file, std::string_view bytes) {
  const LinkTarget link = resolve_links(file);
  if (link.own_descriptor) return write_all(*link.own_descriptor, bytes, file);
  if (link.under_proc) return write_through(file, file, bytes);
  const std::filesystem::path& target = link.path;
  struct stat status;
  if (::stat(target.c_str(), &status) != 0) {
    if (errno != ENOENT) fail(file, "cannot open for writing", errno);
    return write_atomically(target, file, bytes, nullptr);
  }
  if (S_ISDIR(status.st_mode)) throw InputError(file.string() + ": is a directory, not a file");
  if (S_ISREG(status.st_mode)) return write_atomically(target, file, bytes, &status);
  write_through(target, file, bytes);
}

std::filesystem::path prepare_output_directory(const std::filesystem::path& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  require(!error && std::filesystem::is_directory(directory),
          "output directory '" + directory.string() + "' cannot be created" +
              (error ? ": " + error.message() : ": a file of that name exists"));
  return directory;
}

}  // namespace rbmix
