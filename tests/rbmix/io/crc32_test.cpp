#include "rbmix/io/crc32.hpp"

#include <gtest/gtest.h>

#include <string>

namespace rbmix {
namespace {

// The standard check value of CRC-32 (the CRC of the ASCII digits "123456789") and the CRC of nothing.
TEST(Crc32, MatchesThePublishedCheckValue) {
  EXPECT_EQ(crc32_of("123456789"), 0xCBF43926u);
  EXPECT_EQ(crc32_of(""), 0u);
}

TEST(Crc32, SeesEveryByte) {
  std::string bytes(1000, 'a');
  const std::uint32_t original = crc32_of(bytes);
  bytes[999] = 'b';
  EXPECT_NE(crc32_of(bytes), original);
}

}  // namespace
}  // namespace rbmix
