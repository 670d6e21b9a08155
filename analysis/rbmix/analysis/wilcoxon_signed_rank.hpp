#pragma once
// Wilcoxon signed-rank test for paired samples (used by 003 §5.2 to compare G and T trial by trial).
// Differences d_i = x_i − y_i equal to zero are dropped (Wilcoxon's convention); |d_i| are ranked with average
// ranks for ties; W+ = Σ ranks of the positive d_i. The p-value is two-sided. For up to exact_limit non-zero
// differences it is exact under the null hypothesis (each sign ± with probability 1/2 given the ranks, counted by
// dynamic programming over doubled ranks, so ties are handled exactly too); beyond it the normal approximation
// with the tie-corrected variance and a continuity correction is used.
#include <cstddef>
#include <vector>

namespace rbmix::analysis {

struct WilcoxonSignedRankResult {
  double positive_rank_sum = 0.0;  // W+
  std::size_t nonzero_pairs = 0;   // n after dropping zero differences
  double p_value = 1.0;            // two-sided
  bool exact = true;
};

inline constexpr std::size_t wilcoxon_exact_limit = 200;

// Throws InputError unless x and y have the same length and hold finite values.
WilcoxonSignedRankResult wilcoxon_signed_rank(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace rbmix::analysis
