#pragma once
// Helpers shared by the fuzz targets (one target per reader, LLVMFuzzerTestOneInput each).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace rbmix::fuzz {

// The input as a file, for readers that take a path (IDX through zlib, .npy data sets): an anonymous in-memory
// file, rewritten for every input and opened by its /proc/self/fd path, so no disk is touched.
inline std::filesystem::path as_file(const std::uint8_t* data, std::size_t size) {
  static const int descriptor = ::memfd_create("rbmix-fuzz-input", MFD_CLOEXEC);
  if (descriptor < 0 || ::ftruncate(descriptor, 0) != 0) throw std::runtime_error("memfd_create failed");
  for (std::size_t written = 0; written < size;) {
    const ssize_t now = ::pwrite(descriptor, data + written, size - written, static_cast<off_t>(written));
    if (now <= 0) throw std::runtime_error("writing the fuzz input failed");
    written += static_cast<std::size_t>(now);
  }
  return "/proc/self/fd/" + std::to_string(descriptor);
}

inline std::string as_string(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace rbmix::fuzz
