#include "rbmix/analysis/binomial_interval.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "rbmix/core/error.hpp"

namespace rbmix::analysis {

BinomialInterval wilson_interval(int successes, int trials, double quantile) {
  require(trials >= 0 && successes >= 0 && successes <= trials,
          "wilson_interval: successes must be 0..trials, got " + std::to_string(successes) + " of " +
              std::to_string(trials));
  if (trials == 0) return {};
  const double k = successes, n = trials, z2 = quantile * quantile;
  const double centre = k + z2 / 2.0;
  const double half_width = quantile * std::sqrt(k * (n - k) / n + z2 / 4.0);
  // At k = 0 (k = n) the lower (upper) end is 0 (1) exactly; the clamp keeps rounding from crossing it.
  return {std::max(0.0, (centre - half_width) / (n + z2)), std::min(1.0, (centre + half_width) / (n + z2))};
}

}  // namespace rbmix::analysis
