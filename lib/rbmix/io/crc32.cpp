#include "rbmix/io/crc32.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstddef>

namespace rbmix {

std::uint32_t crc32_of(std::string_view bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  // zlib takes uInt lengths; feed large inputs in pieces.
  constexpr std::size_t piece = std::size_t{1} << 30;
  for (std::size_t start = 0; start < bytes.size(); start += piece) {
    const auto length = static_cast<uInt>(std::min(piece, bytes.size() - start));
    crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data() + start), length);
  }
  return static_cast<std::uint32_t>(crc);
}

}  // namespace rbmix
