#include "rbmix/io/file_bytes.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "rbmix/core/error.hpp"
#include "rbmix/core/huge_pages.hpp"

namespace rbmix {

std::string read_file_bytes(const std::filesystem::path& file) {
  std::error_code error;
  if (std::filesystem::is_directory(file, error)) throw InputError(file.string() + ": is a directory, not a file");
  std::ifstream stream(file, std::ios::binary);
  if (!stream) throw InputError(file.string() + ": cannot open for reading (" + std::strerror(errno) + ")");
  // A regular file is read in one piece into a buffer of its size (growing the string as the bytes arrive copied
  // a data set several times over); whatever else the stream holds, or all of a pipe's bytes, is appended.
  std::string bytes;
  if (std::filesystem::is_regular_file(file, error)) {
    const std::uintmax_t size = std::filesystem::file_size(file, error);
    if (!error && size > 0) {
      bytes.reserve(static_cast<std::size_t>(size));
      advise_huge_pages(bytes.data(), static_cast<std::size_t>(size));
      bytes.resize(static_cast<std::size_t>(size));
      stream.read(bytes.data(), static_cast<std::streamsize>(size));
      bytes.resize(static_cast<std::size_t>(stream.gcount()));
      stream.clear(stream.rdstate() & ~(std::ios::failbit | std::ios::eofbit));
    }
  }
  bytes.append(std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>());
  if (stream.bad()) throw InputError(file.string() + ": read failed (" + std::strerror(errno) + ")");
  return bytes;
}

}  // namespace rbmix
