#include "rbmix/verify/chi_squared.hpp"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <numeric>
#include <utility>

namespace rbmix::verify {

double chi_squared_p_value(const std::vector<std::uint64_t>& counts, const VectorD& probabilities) {
  const double total = static_cast<double>(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}));
  std::vector<std::pair<double, double>> bins;  // (expected, observed)
  for (std::size_t k = 0; k < counts.size(); ++k) {
    const double expected = total * probabilities[static_cast<Eigen::Index>(k)];
    if (expected == 0.0 && counts[k] > 0) return 0.0;
    if (expected > 0.0) bins.emplace_back(expected, static_cast<double>(counts[k]));
  }
  std::sort(bins.begin(), bins.end());
  std::vector<std::pair<double, double>> merged;
  std::pair<double, double> pending{0.0, 0.0};
  for (const auto& bin : bins) {
    pending.first += bin.first;
    pending.second += bin.second;
    if (pending.first >= minimum_expected_count) {
      merged.push_back(pending);
      pending = {0.0, 0.0};
    }
  }
  if (pending.first > 0.0) {
    if (merged.empty()) return 1.0;
    merged.back().first += pending.first;
    merged.back().second += pending.second;
  }
  if (merged.size() < 2) return 1.0;  // one bin: the counts must match exactly, nothing to test
  double statistic = 0.0;
  for (const auto& [expected, observed] : merged) statistic += (observed - expected) * (observed - expected) / expected;
  const boost::math::chi_squared distribution(static_cast<double>(merged.size() - 1));
  return boost::math::cdf(boost::math::complement(distribution, statistic));
}

}  // namespace rbmix::verify
