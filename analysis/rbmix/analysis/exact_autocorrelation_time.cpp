#include "rbmix/analysis/exact_autocorrelation_time.hpp"

#include <Eigen/LU>

#include "rbmix/core/error.hpp"

namespace rbmix::analysis {

double exact_integrated_autocorrelation_time(const MatrixD& transition, const VectorD& stationary,
                                             const VectorD& function) {
  const Eigen::Index size = transition.rows();
  require(transition.cols() == size && stationary.size() == size && function.size() == size,
          "exact autocorrelation time: K, π and f must have matching sizes");
  const VectorD centred = function.array() - stationary.dot(function);
  const double variance = stationary.dot(centred.cwiseProduct(centred));
  require(variance > 0.0, "exact autocorrelation time: f is constant under π (zero variance)");
  MatrixD system = MatrixD::Identity(size, size) - transition + VectorD::Ones(size) * stationary.transpose();
  const Eigen::PartialPivLU<MatrixD> lu(system);
  require(std::abs(lu.determinant()) > 0.0, "exact autocorrelation time: I − K + 1πᵀ is singular (K not ergodic)");
  const VectorD fundamental = lu.solve(centred);
  return 2.0 * stationary.dot(centred.cwiseProduct(fundamental)) / variance - 1.0;
}

}  // namespace rbmix::analysis
