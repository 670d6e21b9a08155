#include "rbmix/io/zip_archive.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

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
  // Fixed timestamps: the same members give the same archive.
  EXPECT_EQ(encode_zip(members), encode_zip(members));
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
