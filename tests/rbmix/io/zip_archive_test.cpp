#include "rbmix/io/zip_archive.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <string>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;

std::string decode_error(std::string_view archive) {
  try {
    decode_zip(archive, "broken.npz");
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

void put(std::string& out, std::uint64_t value, std::size_t width) {
  for (std::size_t k = 0; k < width; ++k) out += static_cast<char>((value >> (8 * k)) & 0xFF);
}

TEST(ZipArchive, RoundTripKeepsNamesOrderAndBytes) {
  const std::vector<ZipMember> members{
      {"W.npy", std::string("\x00\x01\xff binary", 10)}, {"empty", ""}, {"a.json", "{}"}};
  const auto back = decode_zip(encode_zip(members), "m.npz");
  ASSERT_EQ(back.size(), members.size());
  for (std::size_t k = 0; k < members.size(); ++k) {
    EXPECT_EQ(back[k].name, members[k].name);
    EXPECT_EQ(back[k].bytes, members[k].bytes);
  }
}

// Little-endian fields of the ZIP format (APPNOTE 4.3.7: the local file header).
std::uint32_t field(const std::string& bytes, std::size_t offset, int width) {
  std::uint32_t value = 0;
  for (int k = width - 1; k >= 0; --k) value = (value << 8) | static_cast<unsigned char>(bytes.at(offset + k));
  return value;
}

// The bytes other readers rely on: the local header of the first member is a STORED entry with the fixed
// 1980-01-01 00:00 timestamp (so equal members give equal archives), the member's CRC-32 as zlib computes it, its
// sizes and name, then the bytes themselves.
TEST(ZipArchive, WritesAStoredLocalHeaderWithAFixedTimestampAndTheMembersCrc) {
  const std::string bytes("\x93NUMPY payload", 14);
  const std::string archive = encode_zip({{"W.npy", bytes}});
  EXPECT_EQ(archive.substr(0, 4), std::string("PK\x03\x04"));
  EXPECT_EQ(field(archive, 8, 2), 0u);                           // compression method: stored
  EXPECT_EQ(field(archive, 10, 2), 0u);                          // time 00:00:00
  EXPECT_EQ(field(archive, 12, 2), (0u << 9) | (1u << 5) | 1u);  // date 1980-01-01
  const auto crc = static_cast<std::uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
  EXPECT_EQ(field(archive, 14, 4), crc);
  EXPECT_EQ(field(archive, 18, 4), bytes.size());  // compressed size
  EXPECT_EQ(field(archive, 22, 4), bytes.size());  // uncompressed size
  EXPECT_EQ(field(archive, 26, 2), 5u);            // name length
  EXPECT_EQ(archive.substr(30, 5), "W.npy");
  const std::size_t data = 30 + 5 + field(archive, 28, 2);
  EXPECT_EQ(archive.substr(data, bytes.size()), bytes);
}

TEST(ZipArchive, ReadsDeflatedMembersWithZip64Extras) {
  // An archive laid out as np.savez_compressed writes it: a deflated member whose local header carries a zip64
  // extra field, and a central directory entry whose sizes are given in a zip64 extra field.
  const std::string plain(1000, 'a');
  std::string compressed(compressBound(plain.size()), '\0');
  z_stream stream{};
  ASSERT_EQ(deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.data()));
  stream.avail_in = static_cast<uInt>(plain.size());
  stream.next_out = reinterpret_cast<Bytef*>(compressed.data());
  stream.avail_out = static_cast<uInt>(compressed.size());
  ASSERT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
  compressed.resize(stream.total_out);
  deflateEnd(&stream);
  const auto crc = crc32(0, reinterpret_cast<const Bytef*>(plain.data()), static_cast<uInt>(plain.size()));

  const std::string name = "x.npy";
  std::string zip64_sizes;
  put(zip64_sizes, 1, 2);
  put(zip64_sizes, 16, 2);
  put(zip64_sizes, plain.size(), 8);
  put(zip64_sizes, compressed.size(), 8);
  std::string archive;
  put(archive, 0x04034b50, 4);
  put(archive, 45, 2);
  put(archive, 0, 2);
  put(archive, 8, 2);
  put(archive, 0, 4);
  put(archive, crc, 4);
  put(archive, 0xFFFFFFFF, 4);
  put(archive, 0xFFFFFFFF, 4);
  put(archive, name.size(), 2);
  put(archive, zip64_sizes.size(), 2);
  archive += name + zip64_sizes + compressed;
  const std::size_t central_offset = archive.size();
  std::string central;
  put(central, 0x02014b50, 4);
  put(central, 45, 2);
  put(central, 45, 2);
  put(central, 0, 2);
  put(central, 8, 2);
  put(central, 0, 4);
  put(central, crc, 4);
  put(central, 0xFFFFFFFF, 4);
  put(central, 0xFFFFFFFF, 4);
  put(central, name.size(), 2);
  put(central, zip64_sizes.size(), 2);
  put(central, 0, 2);
  put(central, 0, 2);
  put(central, 0, 2);
  put(central, 0, 4);
  put(central, 0, 4);
  central += name + zip64_sizes;
  archive += central;
  put(archive, 0x06054b50, 4);
  put(archive, 0, 4);
  put(archive, 1, 2);
  put(archive, 1, 2);
  put(archive, central.size(), 4);
  put(archive, central_offset, 4);
  put(archive, 0, 2);

  const auto members = decode_zip(archive, "compressed.npz");
  ASSERT_EQ(members.size(), 1u);
  EXPECT_EQ(members[0].name, name);
  EXPECT_EQ(members[0].bytes, plain);
}

TEST(ZipArchive, RefusesTruncatedOrCorruptArchives) {
  const std::string good = encode_zip({{"W.npy", std::string(100, 'w')}, {"b.npy", "bias"}});
  ASSERT_EQ(decode_error(good), "");
  EXPECT_THAT(decode_error("short"), HasSubstr("not a zip archive"));
  EXPECT_THAT(decode_error(std::string(200, 'x')), HasSubstr("no end-of-central-directory"));
  // Cutting the archive anywhere loses the end record or leaves pointers beyond the end of the file.
  for (std::size_t length : {good.size() - 1, good.size() - 30, std::size_t{60}}) {
    EXPECT_THAT(decode_error(good.substr(0, length)), HasSubstr("broken.npz")) << "cut at " << length;
  }
  std::string flipped = good;
  flipped[30 + 5 + 50] ^= 0x01;  // inside W.npy's data
  EXPECT_THAT(decode_error(flipped), HasSubstr("CRC-32 mismatch"));
  std::string bad_local = good;
  bad_local[0] = 'Q';
  EXPECT_THAT(decode_error(bad_local), HasSubstr("bad local header signature"));
}

}  // namespace
}  // namespace rbmix
