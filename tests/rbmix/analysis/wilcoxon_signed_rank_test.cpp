#include "rbmix/analysis/wilcoxon_signed_rank.hpp"

#include <gtest/gtest.h>

#include "rbmix/core/error.hpp"

namespace rbmix::analysis {
namespace {

// Hollander & Wolfe (1973, p. 29), the example of R's wilcox.test: V = 40 and one-sided p = 10/512 = 0.01953,
// so the two-sided p is 20/512 (10 of the 2^9 sign patterns give W+ ≥ 40).
TEST(WilcoxonSignedRank, MatchesThePublishedDepressionScaleExample) {
  const std::vector<double> x{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30};
  const std::vector<double> y{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29};
  const auto result = wilcoxon_signed_rank(x, y);
  EXPECT_EQ(result.positive_rank_sum, 40.0);
  EXPECT_EQ(result.nonzero_pairs, 9u);
  EXPECT_NEAR(result.p_value, 20.0 / 512.0, 1e-15);
  EXPECT_TRUE(result.exact);
}

// Swapping the samples mirrors W+ and keeps the two-sided p.
TEST(WilcoxonSignedRank, IsSymmetricInItsSamples) {
  const std::vector<double> x{3, 1, 4, 1, 5, 9, 2, 6};
  const std::vector<double> y{2, 7, 1, 8, 2, 8, 1, 8};
  const auto forward = wilcoxon_signed_rank(x, y);
  const auto backward = wilcoxon_signed_rank(y, x);
  EXPECT_EQ(forward.positive_rank_sum + backward.positive_rank_sum, 8.0 * 9.0 / 2.0);
  EXPECT_DOUBLE_EQ(forward.p_value, backward.p_value);
}

// With ties and zeros: differences {0, 1, −1, 2, 2, 2} drop the zero and give ranks 1.5, 1.5, 4, 4, 4; W+ = 13.5.
// Of the 32 equally likely sign patterns, W+ ≥ 13.5 means W− ≤ 1.5: all signs + (W− = 0) or exactly one of the two
// rank-1.5 differences negative: 3 patterns, so the two-sided p is 2 · 3/32.
TEST(WilcoxonSignedRank, HandlesTiesAndZerosExactly) {
  const std::vector<double> x{5, 6, 4, 7, 7, 7};
  const std::vector<double> y{5, 5, 5, 5, 5, 5};
  const auto result = wilcoxon_signed_rank(x, y);
  EXPECT_EQ(result.nonzero_pairs, 5u);
  EXPECT_EQ(result.positive_rank_sum, 13.5);
  EXPECT_NEAR(result.p_value, 6.0 / 32.0, 1e-15);
}

// Above the exact limit the normal approximation is used; for all-positive differences p is tiny either way.
TEST(WilcoxonSignedRank, UsesTheNormalApproximationForLargeSamples) {
  std::vector<double> x, y;
  for (int k = 0; k < 300; ++k) {
    x.push_back(k + 1.0);
    y.push_back(0.0);
  }
  const auto result = wilcoxon_signed_rank(x, y);
  EXPECT_FALSE(result.exact);
  EXPECT_LT(result.p_value, 1e-40);
}

TEST(WilcoxonSignedRank, RejectsUnpairedSamples) { EXPECT_THROW(wilcoxon_signed_rank({1.0, 2.0}, {1.0}), InputError); }

}  // namespace
}  // namespace rbmix::analysis
