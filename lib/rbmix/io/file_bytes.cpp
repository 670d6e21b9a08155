#include "rbmix/io/file_bytes.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "rbmix/core/error.hpp"

namespace rbmix {

std::string read_file_bytes(const std::filesystem::path& file) {
  std::error_code error;
  if (std::filesystem::is_directory(file, error)) throw InputError(file.string() + ": is a directory, not a file");
  std::ifstream stream(file, std::ios::binary);
  if (!stream) throw InputError(file.string() + ": cannot open for reading (" + std::strerror(errno) + ")");
  std::string bytes{std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
  if (stream.bad()) throw InputError(file.string() + ": read failed (" + std::strerror(errno) + ")");
  return bytes;
}

}  // namespace rbmix
