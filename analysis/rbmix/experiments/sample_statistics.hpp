#pragma once
// The summaries the experiments' tables print over trials, written once: NaN where a summary of no values is
// undefined, rather than a division by zero.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace rbmix::experiments {

inline double mean(const std::vector<double>& values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0.0;
  for (const double value : values) sum += value;
  return sum / static_cast<double>(values.size());
}

// The sample standard deviation (n − 1); 0 for a single value, NaN for none.
inline double standard_deviation(const std::vector<double>& values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  if (values.size() < 2) return 0.0;
  const double centre = mean(values);
  double sum = 0.0;
  for (const double value : values) sum += (value - centre) * (value - centre);
  return std::sqrt(sum / static_cast<double>(values.size() - 1));
}

// The median of the finite values; NaN when there are none.
inline double finite_median(std::vector<double> values) {
  std::erase_if(values, [](double value) { return !std::isfinite(value); });
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

}  // namespace rbmix::experiments
