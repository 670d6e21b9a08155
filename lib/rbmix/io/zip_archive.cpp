#include "rbmix/io/zip_archive.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "rbmix/core/error.hpp"
#include "rbmix/io/crc32.hpp"

namespace rbmix {
namespace {

// Record signatures and sizes of the zip format (PKWARE APPNOTE 6.3, §4.3).
constexpr std::uint32_t local_header_signature = 0x04034b50;
constexpr std::uint32_t central_header_signature = 0x02014b50;
constexpr std::uint32_t end_record_signature = 0x06054b50;
constexpr std::uint32_t zip64_end_record_signature = 0x06064b50;
constexpr std::uint32_t zip64_locator_signature = 0x07064b50;
constexpr std::size_t local_header_size = 30;
constexpr std::size_t central_header_size = 46;
constexpr std::size_t end_record_size = 22;
constexpr std::size_t zip64_locator_size = 20;
constexpr std::size_t zip64_end_record_size = 56;
constexpr std::size_t max_comment_size = 0xFFFF;
constexpr std::uint16_t zip64_extra_id = 0x0001;
constexpr std::uint32_t zip64_marker = 0xFFFFFFFF;
constexpr std::uint16_t version_needed = 20;  // 2.0: stored and deflated members
constexpr std::uint16_t dos_date_1980_01_01 = (0 << 9) | (1 << 5) | 1;
constexpr std::uint16_t method_stored = 0;
constexpr std::uint16_t method_deflated = 8;
constexpr std::uint16_t flag_encrypted = 1;

void put(std::string& out, std::uint64_t value, std::size_t width) {
  for (std::size_t k = 0; k < width; ++k) out += static_cast<char>((value >> (8 * k)) & 0xFF);
}

// Bounds-checked little-endian reads from the archive.
struct Reader {
  std::string_view bytes;
  const std::string& source;

  void require_range(std::uint64_t offset, std::uint64_t length, const std::string& what) const {
    require(offset <= bytes.size() && length <= bytes.size() - offset,
            source + ": truncated or corrupt zip archive (" + what + " lies beyond the end of the file)");
  }
  std::uint64_t get(std::uint64_t offset, std::size_t width, const std::string& what) const {
    require_range(offset, width, what);
    std::uint64_t value = 0;
    for (std::size_t k = 0; k < width; ++k)
      value |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[offset + k])) << (8 * k);
    return value;
  }
};

std::string inflate_member(std::string_view compressed, std::uint64_t size, const std::string& what) {
  require(size <= std::numeric_limits<uInt>::max() && compressed.size() <= std::numeric_limits<uInt>::max(),
          what + ": compressed member too large");
  std::string out(size, '\0');
  z_stream stream{};
  // Negative window bits: raw deflate data, as zip stores it (no zlib or gzip wrapper).
  require(inflateInit2(&stream, -MAX_WBITS) == Z_OK, what + ": cannot initialise zlib");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = inflate(&stream, Z_FINISH);
  const bool complete = status == Z_STREAM_END && stream.total_out == size;
  inflateEnd(&stream);
  require(complete, what + ": corrupt deflated data");
  return out;
}

}  // namespace

std::string encode_zip(const std::vector<ZipMember>& members) {
  std::string out;
  std::string central;
  for (const auto& member : members) {
    require(member.bytes.size() < zip64_marker && out.size() < zip64_marker && member.name.size() <= 0xFFFF,
            "zip member " + member.name + ": archives beyond 4 GiB are not supported");
    const std::uint32_t crc = crc32_of(member.bytes);
    const std::size_t offset = out.size();
    // Fields shared by the local header (from "version needed") and the central header (from offset 6).
    std::string common;
    put(common, version_needed, 2);
    put(common, 0, 2);  // flags
    put(common, method_stored, 2);
    put(common, 0, 2);  // time 00:00:00
    put(common, dos_date_1980_01_01, 2);
    put(common, crc, 4);
    put(common, member.bytes.size(), 4);  // compressed size
    put(common, member.bytes.size(), 4);  // uncompressed size
    put(common, member.name.size(), 2);
    put(common, 0, 2);  // extra field length

    put(out, local_header_signature, 4);
    out += common;
    out += member.name;
    out += member.bytes;

    put(central, central_header_signature, 4);
    put(central, version_needed, 2);  // version made by
    central += common;
    put(central, 0, 2);  // comment length
    put(central, 0, 2);  // disk number
    put(central, 0, 2);  // internal attributes
    put(central, 0, 4);  // external attributes
    put(central, offset, 4);
    central += member.name;
  }
  require(members.size() < 0xFFFF && out.size() < zip64_marker, "zip archive too large");
  const std::size_t central_offset = out.size();
  out += central;
  put(out, end_record_signature, 4);
  put(out, 0, 2);  // this disk
  put(out, 0, 2);  // disk with the central directory
  put(out, members.size(), 2);
  put(out, members.size(), 2);
  put(out, central.size(), 4);
  put(out, central_offset, 4);
  put(out, 0, 2);  // comment length
  return out;
}

std::vector<ZipMember> decode_zip(std::string_view archive, const std::string& source) {
  const Reader reader{archive, source};
  require(archive.size() >= end_record_size, source + ": not a zip archive (too short)");

  // The end record sits at the end, followed only by a comment of at most 64 KiB.
  std::size_t end_offset = archive.size() - end_record_size;
  const std::size_t lowest =
      archive.size() >= end_record_size + max_comment_size ? archive.size() - end_record_size - max_comment_size : 0;
  while (reader.get(end_offset, 4, "end record") != end_record_signature) {
    require(end_offset > lowest, source + ": not a zip archive (no end-of-central-directory record; truncated?)");
    --end_offset;
  }
  require(reader.get(end_offset + 4, 2, "end record") == 0 && reader.get(end_offset + 6, 2, "end record") == 0,
          source + ": multi-disk zip archives are not supported");
  std::uint64_t entries = reader.get(end_offset + 10, 2, "end record");
  std::uint64_t central_offset = reader.get(end_offset + 16, 4, "end record");
  if (entries == 0xFFFF || central_offset == zip64_marker) {
    require(end_offset >= zip64_locator_size &&
                reader.get(end_offset - zip64_locator_size, 4, "zip64 locator") == zip64_locator_signature,
            source + ": corrupt zip archive (zip64 end record locator missing)");
    const std::uint64_t record = reader.get(end_offset - zip64_locator_size + 8, 8, "zip64 locator");
    reader.require_range(record, zip64_end_record_size, "zip64 end record");
    require(reader.get(record, 4, "zip64 end record") == zip64_end_record_signature,
            source + ": corrupt zip archive (bad zip64 end record)");
    entries = reader.get(record + 32, 8, "zip64 end record");
    central_offset = reader.get(record + 48, 8, "zip64 end record");
  }

  std::vector<ZipMember> members;
  std::uint64_t cursor = central_offset;
  for (std::uint64_t entry = 0; entry < entries; ++entry) {
    const std::string where = "central directory entry " + std::to_string(entry);
    reader.require_range(cursor, central_header_size, where);
    require(reader.get(cursor, 4, where) == central_header_signature,
            source + ": corrupt zip archive (bad signature of " + where + ")");
    const auto flags = reader.get(cursor + 8, 2, where);
    const auto method = reader.get(cursor + 10, 2, where);
    const auto crc = reader.get(cursor + 16, 4, where);
    std::uint64_t compressed_size = reader.get(cursor + 20, 4, where);
    std::uint64_t size = reader.get(cursor + 24, 4, where);
    const auto name_length = reader.get(cursor + 28, 2, where);
    const auto extra_length = reader.get(cursor + 30, 2, where);
    const auto comment_length = reader.get(cursor + 32, 2, where);
    std::uint64_t local_offset = reader.get(cursor + 42, 4, where);
    reader.require_range(cursor + central_header_size, name_length + extra_length + comment_length, where);
    std::string name(archive.substr(cursor + central_header_size, name_length));
    const std::string what = source + ": member " + name;

    // zip64 extended information replaces, in this order, the fields that hold the marker.
    std::uint64_t extra = cursor + central_header_size + name_length;
    const std::uint64_t extra_end = extra + extra_length;
    while (extra + 4 <= extra_end) {
      const auto id = reader.get(extra, 2, where);
      const auto length = reader.get(extra + 2, 2, where);
      require(extra + 4 + length <= extra_end, what + ": corrupt extra field");
      if (id == zip64_extra_id) {
        std::uint64_t field = extra + 4;
        for (auto* value : {&size, &compressed_size, &local_offset}) {
          if (*value != zip64_marker) continue;
          require(field + 8 <= extra + 4 + length, what + ": corrupt zip64 field");
          *value = reader.get(field, 8, where);
          field += 8;
        }
      }
      extra += 4 + length;
    }
    cursor = extra_end + comment_length;

    require((flags & flag_encrypted) == 0, what + " is encrypted, which is not supported");
    require(method == method_stored || method == method_deflated,
            what + ": compression method " + std::to_string(method) + " is not supported (stored or deflated are)");
    reader.require_range(local_offset, local_header_size, "local header of " + name);
    require(reader.get(local_offset, 4, where) == local_header_signature,
            what + ": corrupt zip archive (bad local header signature)");
    const std::uint64_t data = local_offset + local_header_size + reader.get(local_offset + 26, 2, where) +
                               reader.get(local_offset + 28, 2, where);
    reader.require_range(data, compressed_size, "data of member " + name);
    const std::string_view stored = archive.substr(data, compressed_size);
    if (method == method_stored) {
      require(compressed_size == size, what + ": stored member with different compressed and plain sizes");
      members.push_back({std::move(name), std::string(stored)});
    } else {
      members.push_back({std::move(name), inflate_member(stored, size, what)});
    }
    require(crc32_of(members.back().bytes) == crc, what + ": CRC-32 mismatch (the archive is corrupt)");
  }
  return members;
}

}  // namespace rbmix
