#pragma once
// Pearson's χ² goodness-of-fit test of sampled counts against exact probabilities, shared by the statistical tests
// that compare a sampler with the exact transition matrix (docs/algorithms.md §2).
#include <cstdint>
#include <vector>

#include "rbmix/core/types.hpp"

namespace rbmix::testing {

// Pearson's χ² approximation needs expected counts of about 5 or more per bin (Cochran's rule).
inline constexpr double kMinimumExpectedCount = 5.0;

// The p-value of `counts` against `probabilities`: bins with expected count < 5 are merged (smallest first)
// into one bin; an observation in a bin of probability exactly 0 is impossible and gives p = 0.
double chi_squared_p_value(const std::vector<std::uint64_t>& counts, const VectorD& probabilities);

}  // namespace rbmix::testing
