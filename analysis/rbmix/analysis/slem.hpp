#pragma once
// The second largest eigenvalue modulus (003 §4.1): SLEM = max |μ| over the eigenvalues of K other than the
// Perron root 1; it is 1 when |μ| = 1 is not simple (a reducible or periodic chain). It bounds the geometric rate
// at which the chain forgets its start.
//
// Two routes that must agree (tests cross-check them to 1e-8):
//  - dense: all eigenvalues of the nonsymmetric K by Eigen's EigenSolver (K = K_h K_v is not reversible, so no
//    symmetrisation), drop the eigenvalue nearest 1;
//  - matrix-free: Spectra's GenEigsSolver on the deflated operator y = K x − 1 (πᵀ x). If K u = μ u with μ ≠ 1
//    then πᵀ u = 0 (π is a left eigenvector for 1), so the deflated operator keeps every such eigenpair and sends
//    the Perron root to 0: its largest modulus is the SLEM.
#include <Spectra/GenEigsSolver.h>

#include <string>

#include "rbmix/analysis/transition_operator.hpp"

namespace rbmix::analysis {

struct SlemResult {
  double slem = 1.0;
  std::string method;     // "dense", "matrix-free", or "through the hidden/visible chain" (factorised_sweep.hpp)
  bool converged = true;  // false if the iterative solver stopped before its tolerance
  Eigen::Index iterations = 0;
  Eigen::Index operator_applications = 0;
};

struct SlemOptions {
  Eigen::Index requested_eigenvalues = 4;  // a few, so complex-conjugate pairs do not split at the boundary
  Eigen::Index krylov_dimension = 30;
  Eigen::Index max_restarts = 2000;
  // Spectra's relative tolerance on each Ritz value; 1e-12 leaves room for the 1e-8 agreement with dense.
  double tolerance = 1e-12;
  void validate() const;
};

SlemResult dense_slem(const MatrixD& matrix);

// The SLEM of any row-stochastic matrix (an empirical one, say, whose stationary vector is not at hand): Arnoldi on
// K − 1wᵀ with w uniform. K1 = 1, so by Brauer's theorem the deflated matrix has the eigenvalues of K with the Perron
// root sent to 0, whatever w with wᵀ1 = 1 (docs/algorithms/operators.md §2.5): its largest modulus is the SLEM. Dense
// below stochastic_arnoldi_min_states states and wherever Arnoldi does not converge, so the result is the dense one's
// to the Arnoldi tolerance (1e-10).
inline constexpr Eigen::Index stochastic_arnoldi_min_states = 128;
SlemResult stochastic_matrix_slem(const MatrixD& matrix);

// K x − 1 (πᵀ x): the Perron root moved to 0. Keeps references.
template <typename Operator>
class DeflatedOperator {
 public:
  using Scalar = double;
  DeflatedOperator(const Operator& base, const VectorD& stationary) : base_(base), stationary_(stationary) {
    require(stationary.size() == base.rows(), "deflated operator: π has the wrong length");
  }
  Eigen::Index rows() const { return base_.rows(); }
  Eigen::Index cols() const { return base_.cols(); }
  void perform_op(const double* x, double* y) const {
    base_.perform_op(x, y);
    const double mean = stationary_.dot(Eigen::Map<const VectorD>(x, cols()));
    Eigen::Map<VectorD>(y, rows()).array() -= mean;
  }

 private:
  const Operator& base_;
  const VectorD& stationary_;
};

template <typename Operator>
SlemResult matrix_free_slem(const Operator& op, const VectorD& stationary, const SlemOptions& options = {}) {
  options.validate();
  require(op.rows() > options.krylov_dimension, "matrix-free SLEM: " + std::to_string(op.rows()) +
                                                    " states are too few for a Krylov space of dimension " +
                                                    std::to_string(options.krylov_dimension) + "; use the dense SLEM");
  DeflatedOperator<Operator> deflated(op, stationary);
  Spectra::GenEigsSolver<DeflatedOperator<Operator>> solver(deflated, options.requested_eigenvalues,
                                                            options.krylov_dimension);
  solver.init();
  solver.compute(Spectra::SortRule::LargestMagn, options.max_restarts, options.tolerance);
  SlemResult result;
  result.method = "matrix-free";
  result.converged = solver.info() == Spectra::CompInfo::Successful;
  result.iterations = solver.num_iterations();
  result.operator_applications = solver.num_operations();
  result.slem = result.converged ? solver.eigenvalues().cwiseAbs().maxCoeff() : 1.0;
  return result;
}

}  // namespace rbmix::analysis
