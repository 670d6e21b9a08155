#pragma once
// CRC-32 (ISO 3309, as zip, gzip and PNG use it) of a byte string: the one checksum of rbmix's file formats
// (zip members, training checkpoints, experiment journal entries).
#include <cstdint>
#include <string_view>

namespace rbmix {

std::uint32_t crc32_of(std::string_view bytes);

}  // namespace rbmix
