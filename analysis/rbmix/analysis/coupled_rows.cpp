#include "rbmix/analysis/coupled_rows.hpp"

#include <algorithm>

namespace rbmix::analysis {
namespace {

// The state at which the running sum of weight(z) first exceeds `target` (the last state with positive weight if
// rounding leaves the target above the total).
template <typename Weight>
Eigen::Index inverse_cdf(Eigen::Index states, double target, const Weight& weight) {
  double sum = 0.0;
  Eigen::Index last = 0;
  for (Eigen::Index z = 0; z < states; ++z) {
    const double w = weight(z);
    if (w <= 0.0) continue;
    sum += w;
    last = z;
    if (target < sum) return z;
  }
  return last;
}

}  // namespace

Eigen::Index draw_from_row(const MatrixD& matrix, Eigen::Index from, RandomStream& stream) {
  return inverse_cdf(matrix.cols(), stream.uniform(), [&](Eigen::Index z) { return matrix(from, z); });
}

std::pair<Eigen::Index, Eigen::Index> draw_coupled_rows(const MatrixD& matrix, Eigen::Index first, Eigen::Index second,
                                                        RandomStream& stream) {
  if (first == second) {
    const Eigen::Index next = draw_from_row(matrix, first, stream);
    return {next, next};
  }
  const auto p = matrix.row(first), q = matrix.row(second);
  const double overlap = p.cwiseMin(q).sum();
  const double u = stream.uniform();
  if (u < overlap) {
    const Eigen::Index next =
        inverse_cdf(matrix.cols(), stream.uniform() * overlap, [&](Eigen::Index z) { return std::min(p[z], q[z]); });
    return {next, next};
  }
  const double residual = 1.0 - overlap;
  const Eigen::Index next_first = inverse_cdf(matrix.cols(), stream.uniform() * residual,
                                              [&](Eigen::Index z) { return std::max(0.0, p[z] - q[z]); });
  const Eigen::Index next_second = inverse_cdf(matrix.cols(), stream.uniform() * residual,
                                               [&](Eigen::Index z) { return std::max(0.0, q[z] - p[z]); });
  return {next_first, next_second};
}

}  // namespace rbmix::analysis
