#include "rbmix/experiments/exact_number.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {
namespace {

// Through JSON text and back, every double keeps its bits: the tables a grid writes from journaled results are
// then byte-identical to those of a run that kept them in memory.
TEST(ExactNumber, RestoresEveryBitThroughJsonText) {
  const double values[] = {0.0,
                           -0.0,
                           0.1,
                           1.0 / 3.0,
                           -2.718281828459045,
                           std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity()};
  for (const double value : values) {
    const nlohmann::json text = nlohmann::json::parse(nlohmann::json(exact_number(value)).dump());
    EXPECT_EQ(std::bit_cast<std::uint64_t>(read_exact_number(text)), std::bit_cast<std::uint64_t>(value)) << value;
  }
  EXPECT_TRUE(std::isnan(read_exact_number(exact_number(std::numeric_limits<double>::quiet_NaN()))));
}

TEST(ExactNumber, RefusesWhatItDidNotWrite) {
  EXPECT_THROW(read_exact_number(nlohmann::json(0.5)), InputError);
  EXPECT_THROW(read_exact_number(nlohmann::json("0x1p-1 and more")), InputError);
  EXPECT_THROW(read_exact_number(nlohmann::json("")), InputError);
}

}  // namespace
}  // namespace rbmix::experiments
