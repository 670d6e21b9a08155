#include "rbmix/analysis/exact_autocorrelation_time.hpp"

#include <Eigen/LU>
#include <limits>

#include "rbmix/core/error.hpp"

namespace rbmix::analysis {

std::optional<VectorD> try_fundamental_solve(const MatrixD& transition, const VectorD& stationary,
                                             const VectorD& centred) {
  const Eigen::Index size = transition.rows();
  require(transition.cols() == size && stationary.size() == size && centred.size() == size,
          "fundamental matrix: K, π and x must have matching sizes");
  const MatrixD system = MatrixD::Identity(size, size) - transition + VectorD::Ones(size) * stationary.transpose();
  const Eigen::PartialPivLU<MatrixD> lu(system);
  if (!(std::abs(lu.determinant()) > 0.0) || !(lu.rcond() >= std::numeric_limits<double>::epsilon()))
    return std::nullopt;
  return VectorD(lu.solve(centred));
}

std::optional<double> try_exact_integrated_autocorrelation_time(const MatrixD& transition, const VectorD& stationary,
                                                                const VectorD& function) {
  const Eigen::Index size = transition.rows();
  require(transition.cols() == size && stationary.size() == size && function.size() == size,
          "exact autocorrelation time: K, π and f must have matching sizes");
  const VectorD centred = function.array() - stationary.dot(function);
  const double variance = stationary.dot(centred.cwiseProduct(centred));
  require(variance > 0.0, "exact autocorrelation time: f is constant under π (zero variance)");
  const std::optional<VectorD> fundamental = try_fundamental_solve(transition, stationary, centred);
  if (!fundamental) return std::nullopt;
  const double time = 2.0 * stationary.dot(centred.cwiseProduct(*fundamental)) / variance - 1.0;
  if (!std::isfinite(time)) return std::nullopt;
  return time;
}

double exact_integrated_autocorrelation_time(const MatrixD& transition, const VectorD& stationary,
                                             const VectorD& function) {
  const std::optional<double> time = try_exact_integrated_autocorrelation_time(transition, stationary, function);
  require(time.has_value(), "exact autocorrelation time: I − K + 1πᵀ is singular (K not ergodic)");
  return *time;
}

}  // namespace rbmix::analysis
