#pragma once
// Writes IDX files (plain or gzip) for tests of the IDX and MNIST readers, byte by byte and independently of them.
#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace rbmix::testing {

// Magic 0x00 0x00 <type> <rank>, big-endian dimensions, then `data` as given (which may be deliberately short).
inline std::string idx_bytes(const std::vector<std::uint32_t>& dimensions, const std::string& data,
                             std::uint8_t type = 0x08) {
  std::string bytes{'\0', '\0', static_cast<char>(type), static_cast<char>(dimensions.size())};
  for (const auto dimension : dimensions)
    for (int shift = 24; shift >= 0; shift -= 8) bytes += static_cast<char>((dimension >> shift) & 0xFF);
  return bytes + data;
}

inline void write_plain(const std::filesystem::path& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline void write_gzip(const std::filesystem::path& file, const std::string& bytes) {
  gzFile handle = gzopen(file.string().c_str(), "wb");
  gzwrite(handle, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(handle);
}

}  // namespace rbmix::testing
