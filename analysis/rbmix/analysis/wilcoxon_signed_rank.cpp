#include "rbmix/analysis/wilcoxon_signed_rank.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "rbmix/core/error.hpp"

namespace rbmix::analysis {

WilcoxonSignedRankResult wilcoxon_signed_rank(const std::vector<double>& x, const std::vector<double>& y) {
  require(x.size() == y.size(), "wilcoxon_signed_rank: the paired samples differ in length (" +
                                    std::to_string(x.size()) + " and " + std::to_string(y.size()) + ")");
  std::vector<double> differences;
  for (std::size_t k = 0; k < x.size(); ++k) {
    require(std::isfinite(x[k]) && std::isfinite(y[k]), "wilcoxon_signed_rank: a sample value is NaN or infinite");
    if (x[k] != y[k]) differences.push_back(x[k] - y[k]);
  }
  WilcoxonSignedRankResult result;
  const std::size_t n = differences.size();
  result.nonzero_pairs = n;
  if (n == 0) return result;

  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return std::abs(differences[a]) < std::abs(differences[b]); });
  // Doubled average ranks are integers: a tie group at positions first..last (1-based) has rank (first+last)/2.
  std::vector<std::size_t> doubled_rank(n);
  double tie_correction = 0.0;  // Σ (t³ − t) over tie groups
  for (std::size_t first = 0; first < n;) {
    std::size_t last = first;
    while (last + 1 < n && std::abs(differences[order[last + 1]]) == std::abs(differences[order[first]])) ++last;
    for (std::size_t k = first; k <= last; ++k) doubled_rank[order[k]] = (first + 1) + (last + 1);
    const double ties = static_cast<double>(last - first + 1);
    tie_correction += ties * ties * ties - ties;
    first = last + 1;
  }
  std::size_t doubled_positive = 0;
  for (std::size_t k = 0; k < n; ++k)
    if (differences[k] > 0) doubled_positive += doubled_rank[k];
  result.positive_rank_sum = static_cast<double>(doubled_positive) / 2.0;

  const std::size_t doubled_total = n * (n + 1);
  if (n <= wilcoxon_exact_limit) {
    // probability[s] = P(Σ of doubled ranks with a + sign = s), each sign independently ± with probability 1/2.
    std::vector<double> probability(doubled_total + 1, 0.0);
    probability[0] = 1.0;
    std::size_t reachable = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t rank = doubled_rank[k];
      reachable += rank;
      for (std::size_t s = reachable; s + 1 > 0; --s) {
        const double without = probability[s];
        const double with = s >= rank ? probability[s - rank] : 0.0;
        probability[s] = 0.5 * (without + with);
        if (s == 0) break;
      }
    }
    double lower = 0.0, upper = 0.0;
    for (std::size_t s = 0; s <= doubled_total; ++s) {
      if (s <= doubled_positive) lower += probability[s];
      if (s >= doubled_positive) upper += probability[s];
    }
    result.p_value = std::min(1.0, 2.0 * std::min(lower, upper));
    result.exact = true;
  } else {
    const double mean = static_cast<double>(n) * static_cast<double>(n + 1) / 4.0;
    const double variance =
        static_cast<double>(n) * static_cast<double>(n + 1) * static_cast<double>(2 * n + 1) / 24.0 -
        tie_correction / 48.0;
    const double distance = std::max(0.0, std::abs(result.positive_rank_sum - mean) - 0.5);
    result.p_value = variance > 0.0 ? std::min(1.0, std::erfc(distance / std::sqrt(2.0 * variance))) : 1.0;
    result.exact = false;
  }
  return result;
}

}  // namespace rbmix::analysis
