#include "rbmix/verify/chi_squared.hpp"

#include <gtest/gtest.h>

namespace rbmix::verify {
namespace {

TEST(ChiSquared, ObservationInAnImpossibleBinGivesZero) {
  VectorD probabilities(3);
  probabilities << 0.5, 0.5, 0.0;
  EXPECT_EQ(chi_squared_p_value({50, 49, 1}, probabilities), 0.0);
  EXPECT_GT(chi_squared_p_value({50, 50, 0}, probabilities), 0.9);
}

// Bins expected fewer than 5 times are merged with the next smallest until they reach 5: here all three become one
// bin, which leaves nothing to test, although the rare bins alone disagree.
TEST(ChiSquared, MergesRareBinsUntilTheyAreExpectedFiveTimes) {
  VectorD probabilities(3);
  probabilities << 0.01, 0.01, 0.98;
  EXPECT_EQ(chi_squared_p_value({4, 0, 196}, probabilities), 1.0);
  EXPECT_LT(chi_squared_p_value({40, 0, 1960}, probabilities), 1e-6);
}

}  // namespace
}  // namespace rbmix::verify
