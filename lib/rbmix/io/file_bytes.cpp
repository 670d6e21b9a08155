#include "rbmix/io/file_bytes.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>

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

void write_file_bytes(const std::filesystem::path& file, std::string_view bytes) {
  std::filesystem::path temporary = file;
  temporary += ".partial";
  {
    std::ofstream stream(temporary, std::ios::binary | std::ios::trunc);
    if (!stream) throw InputError(file.string() + ": cannot open for writing (" + std::strerror(errno) + ")");
    stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    stream.close();
    if (!stream) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw InputError(file.string() + ": write failed (" + std::strerror(errno) + ")");
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, file, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw InputError(file.string() + ": cannot move the written file into place (" + error.message() + ")");
  }
}

}  // namespace rbmix
