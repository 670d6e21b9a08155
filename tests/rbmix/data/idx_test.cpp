#include "rbmix/data/idx.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rbmix/core/error.hpp"
#include "support/idx_writer.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;
using testing::idx_bytes;

// Two 2×3 images with pixel values 0..11.
std::string two_images() {
  std::string pixels;
  for (char value = 0; value < 12; ++value) pixels += value;
  return idx_bytes({2, 2, 3}, pixels);
}

std::string read_error(const std::filesystem::path& file, bool labels = false) {
  try {
    if (labels)
      read_idx_labels(file);
    else
      read_idx_images(file);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(Idx, ReadsPlainAndGzipImagesAndLabels) {
  const testing::TemporaryDirectory directory;
  testing::write_plain(directory / "images", two_images());
  testing::write_gzip(directory / "images.gz", two_images());
  for (const auto* name : {"images", "images.gz"}) {
    const Images images = read_idx_images(directory / name);
    EXPECT_EQ(images.height, 2);
    EXPECT_EQ(images.width, 3);
    ASSERT_EQ(images.pixels.rows(), 2);
    ASSERT_EQ(images.pixels.cols(), 6);
    EXPECT_EQ(images.pixels(1, 0), 6) << name;  // second image, pixel (0, 0)
    EXPECT_EQ(images.pixels(0, 5), 5) << name;  // first image, pixel (1, 2)
  }
  testing::write_gzip(directory / "labels.gz", idx_bytes({3}, std::string("\x07\x00\x09", 3)));
  EXPECT_EQ(read_idx_labels(directory / "labels.gz"), (std::vector<std::uint8_t>{7, 0, 9}));
  const IdxArray generic = read_idx(directory / "labels.gz");
  EXPECT_EQ(generic.dimensions, std::vector<std::uint32_t>{3});
}

TEST(Idx, RefusesMalformedFilesNamingThem) {
  const testing::TemporaryDirectory directory;
  const auto broken = [&](const std::string& name, const std::string& bytes, bool gzip = false) {
    const auto file = directory / name;
    if (gzip)
      testing::write_gzip(file, bytes);
    else
      testing::write_plain(file, bytes);
    return file;
  };
  const std::string good = two_images();
  EXPECT_THAT(read_error(broken("bad_magic", "\x01\x02\x08\x03" + good.substr(4))), HasSubstr("not an IDX file"));
  EXPECT_THAT(read_error(broken("floats", idx_bytes({1, 1, 1}, std::string(4, '\0'), 0x0D))),
              HasSubstr("data type 0x0000000d is not supported"));
  EXPECT_THAT(read_error(broken("labels_as_images", idx_bytes({2}, "\x01\x02"))),
              HasSubstr("0x00000801 where 0x00000803 was expected"));
  EXPECT_THAT(read_error(broken("images_as_labels", good), true), HasSubstr("where 0x00000801 was expected"));
  EXPECT_THAT(read_error(broken("empty", "")), HasSubstr("no magic number"));
  EXPECT_THAT(read_error(broken("cut_header", good.substr(0, 10))), HasSubstr("truncated IDX header"));
  EXPECT_THAT(read_error(broken("cut_data", good.substr(0, good.size() - 1))), HasSubstr("11 present"));
  EXPECT_THAT(read_error(broken("cut_data.gz", good.substr(0, good.size() - 1), true)),
              HasSubstr("truncated IDX data"));
  EXPECT_THAT(read_error(broken("long", good + "x")), HasSubstr("unexpected bytes after the IDX data"));
  EXPECT_THAT(read_error(broken("huge", idx_bytes({60000, 65536, 65536}, ""))), HasSubstr("corrupt header?"));
  // Gigabytes announced, one byte present: refused as truncated, without first allocating what was announced.
  EXPECT_THAT(read_error(broken("announces_3gb", idx_bytes({3, 1024, 1048576}, "x"))),
              HasSubstr("3221225472 bytes announced, 1 present"));
  EXPECT_THAT(read_error(directory / "missing"), HasSubstr("missing: no such file"));

  // A gzip stream cut short: zlib reports the damage instead of returning short data silently.
  std::string compressed;
  testing::write_gzip(directory / "whole.gz", good + std::string(4000, '\x05'));
  {
    std::ifstream in(directory / "whole.gz", std::ios::binary);
    compressed.assign(std::istreambuf_iterator<char>(in), {});
  }
  const auto cut = broken("cut_stream.gz", "");
  testing::write_plain(cut, compressed.substr(0, compressed.size() - 12));
  EXPECT_THAT(read_error(cut), HasSubstr("cut_stream.gz"));

  // The gzip trailer is the CRC-32 and the length of the data (8 bytes): a cut in it, or a wrong CRC, is refused
  // although every data byte is present.
  testing::write_gzip(directory / "exact.gz", good);
  std::ifstream exact_file(directory / "exact.gz", std::ios::binary);
  const std::string exact{std::istreambuf_iterator<char>(exact_file), {}};
  ASSERT_NO_THROW(read_idx_images(directory / "exact.gz"));
  for (std::size_t missing = 1; missing <= 8; ++missing) {
    testing::write_plain(cut, exact.substr(0, exact.size() - missing));
    EXPECT_THAT(read_error(cut), HasSubstr("corrupt or truncated compressed data")) << missing << " bytes cut";
  }
  std::string wrong_crc = exact;
  wrong_crc[wrong_crc.size() - 8] = static_cast<char>(wrong_crc[wrong_crc.size() - 8] ^ 1);
  testing::write_plain(cut, wrong_crc);
  EXPECT_THAT(read_error(cut), HasSubstr("corrupt or truncated compressed data"));
}

}  // namespace
}  // namespace rbmix
