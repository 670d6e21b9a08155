#pragma once
// Pearson's χ² goodness-of-fit test, the one routine every sampler test uses to compare counts with exact
// probabilities (sampled one-step transitions against exact rows of K: sampled_transitions.hpp).
#include <cstdint>
#include <vector>

#include "rbmix/core/types.hpp"

namespace rbmix::verify {

// Pearson's χ² approximation needs expected counts of about 5 or more per bin (Cochran's rule).
inline constexpr double minimum_expected_count = 5.0;

// The p-value of `counts` against `probabilities`: bins with expected count < 5 are merged (smallest first) into
// one bin; an observation in a bin of probability exactly 0 is impossible and gives p = 0; a single bin gives 1.
double chi_squared_p_value(const std::vector<std::uint64_t>& counts, const VectorD& probabilities);

}  // namespace rbmix::verify
