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

namespace {

// Where the central directory starts and how many entries it holds (APPNOTE §4.3.16, zip64 §4.3.14–15).
struct CentralDirectory {
  std::uint64_t entries = 0;
  std::uint64_t offset = 0;
};

CentralDirectory find_central_directory(const Reader& reader) {
  const std::string& source = reader.source;
  const std::size_t size = reader.bytes.size();
  require(size >= end_record_size, source + ": not a zip archive (too short)");
  // The end record sits at the end, followed only by a comment of at most 64 KiB.
  std::size_t end_offset = size - end_record_size;
  const std::size_t lowest = size >= end_record_size + max_comment_size ? size - end_record_size - max_comment_size : 0;
  while (reader.get(end_offset, 4, "end record") != end_record_signature) {
    require(end_offset > lowest, source + ": not a zip archive (no end-of-central-directory record; truncated?)");
    --end_offset;
  }
  require(reader.get(end_offset + 4, 2, "end record") == 0 && reader.get(end_offset + 6, 2, "end record") == 0,
          source + ": multi-disk zip archives are not supported");
  CentralDirectory directory{reader.get(end_offset + 10, 2, "end record"), reader.get(end_offset + 16, 4, "end record")};
  if (directory.entries != 0xFFFF && directory.offset != zip64_marker) return directory;
  require(end_offset >= zip64_locator_size &&
              reader.get(end_offset - zip64_locator_size, 4, "zip64 locator") == zip64_locator_signature,
          source + ": corrupt zip archive (zip64 end record locator missing)");
  const std::uint64_t record = reader.get(end_offset - zip64_locator_size + 8, 8, "zip64 locator");
  reader.require_range(record, zip64_end_record_size, "zip64 end record");
  require(reader.get(record, 4, "zip64 end record") == zip64_end_record_signature,
          source + ": corrupt zip archive (bad zip64 end record)");
  return {reader.get(record + 32, 8, "zip64 end record"), reader.get(record + 48, 8, "zip64 end record")};
}

// One central directory entry: what is needed to find, unpack and check its member.
struct CentralEntry {
  std::string name;
  std::uint64_t flags = 0;
  std::uint64_t method = 0;
  std::uint64_t crc = 0;
  std::uint64_t compressed_size = 0;
  std::uint64_t size = 0;
  std::uint64_t local_offset = 0;
  std::uint64_t next = 0;  // where the following entry starts
};

// Reads the entry at `cursor` (APPNOTE §4.3.12); zip64 extended information replaces, in this order, the fields
// that hold the marker (§4.5.3).
CentralEntry read_central_entry(const Reader& reader, std::uint64_t cursor, const std::string& where) {
  reader.require_range(cursor, central_header_size, where);
  require(reader.get(cursor, 4, where) == central_header_signature,
          reader.source + ": corrupt zip archive (bad signature of " + where + ")");
  CentralEntry entry;
  entry.flags = reader.get(cursor + 8, 2, where);
  entry.method = reader.get(cursor + 10, 2, where);
  entry.crc = reader.get(cursor + 16, 4, where);
  entry.compressed_size = reader.get(cursor + 20, 4, where);
  entry.size = reader.get(cursor + 24, 4, where);
  const auto name_length = reader.get(cursor + 28, 2, where);
  const auto extra_length = reader.get(cursor + 30, 2, where);
  const auto comment_length = reader.get(cursor + 32, 2, where);
  entry.local_offset = reader.get(cursor + 42, 4, where);
  reader.require_range(cursor + central_header_size, name_length + extra_length + comment_length, where);
  entry.name = std::string(reader.bytes.substr(cursor + central_header_size, name_length));

  std::uint64_t extra = cursor + central_header_size + name_length;
  const std::uint64_t extra_end = extra + extra_length;
  while (extra + 4 <= extra_end) {
    const auto id = reader.get(extra, 2, where);
    const auto length = reader.get(extra + 2, 2, where);
    require(extra + 4 + length <= extra_end, reader.source + ": member " + entry.name + ": corrupt extra field");
    if (id == zip64_extra_id) {
      std::uint64_t field = extra + 4;
      for (auto* value : {&entry.size, &entry.compressed_size, &entry.local_offset}) {
        if (*value != zip64_marker) continue;
        require(field + 8 <= extra + 4 + length, reader.source + ": member " + entry.name + ": corrupt zip64 field");
        *value = reader.get(field, 8, where);
        field += 8;
      }
    }
    extra += 4 + length;
  }
  entry.next = extra_end + comment_length;
  return entry;
}

// The member an entry names, unpacked and checked against its CRC-32 (APPNOTE §4.3.7).
ZipMember read_member(const Reader& reader, const CentralEntry& entry, const std::string& where) {
  const std::string what = reader.source + ": member " + entry.name;
  require((entry.flags & flag_encrypted) == 0, what + " is encrypted, which is not supported");
  require(entry.method == method_stored || entry.method == method_deflated,
          what + ": compression method " + std::to_string(entry.method) +
              " is not supported (stored or deflated are)");
  reader.require_range(entry.local_offset, local_header_size, "local header of " + entry.name);
  require(reader.get(entry.local_offset, 4, where) == local_header_signature,
          what + ": corrupt zip archive (bad local header signature)");
  const std::uint64_t data = entry.local_offset + local_header_size + reader.get(entry.local_offset + 26, 2, where) +
                             reader.get(entry.local_offset + 28, 2, where);
  reader.require_range(data, entry.compressed_size, "data of member " + entry.name);
  const std::string_view stored = reader.bytes.substr(data, entry.compressed_size);
  ZipMember member{entry.name, {}};
  if (entry.method == method_stored) {
    require(entry.compressed_size == entry.size, what + ": stored member with different compressed and plain sizes");
    member.bytes = std::string(stored);
  } else {
    member.bytes = inflate_member(stored, entry.size, what);
  }
  require(crc32_of(member.bytes) == entry.crc, what + ": CRC-32 mismatch (the archive is corrupt)");
  return member;
}

}  // namespace

std::vector<ZipMember> decode_zip(std::string_view archive, const std::string& source) {
  const Reader reader{archive, source};
  const CentralDirectory directory = find_central_directory(reader);
  std::vector<ZipMember> members;
  std::uint64_t cursor = directory.offset;
  for (std::uint64_t index = 0; index < directory.entries; ++index) {
    const std::string where = "central directory entry " + std::to_string(index);
    const CentralEntry entry = read_central_entry(reader, cursor, where);
    members.push_back(read_member(reader, entry, where));
    cursor = entry.next;
  }
  return members;
}

}  // namespace rbmix
