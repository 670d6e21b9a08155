#pragma once
// The zip container of .npz files: named members, in order.
// Promises:
//  - encode_zip writes every member STORED (uncompressed) with its CRC-32 and a fixed timestamp (1980-01-01), so the
//    same members always give the same bytes; numpy's np.load and any unzip tool read the result.
//  - decode_zip reads STORED and DEFLATED members (np.savez and np.savez_compressed), including the zip64 fields
//    numpy writes, and checks every member's CRC-32; a missing end record, a truncated archive, a corrupted member,
//    encryption or an unknown compression method is an InputError naming the source.
#include <string>
#include <string_view>
#include <vector>

namespace rbmix {

struct ZipMember {
  std::string name;
  std::string bytes;
};

std::string encode_zip(const std::vector<ZipMember>& members);
// `source` names the archive in error messages.
std::vector<ZipMember> decode_zip(std::string_view archive, const std::string& source);

}  // namespace rbmix
