#pragma once
// The invariants every transition operator must satisfy (docs/algorithms/operators.md §2), measured exactly:
// rows sum to 1, π ∝ e^{−βE} is stationary, and (for layer operators) detailed balance holds.
#include <algorithm>
#include <cmath>

#include "rbmix/analysis/transition_operator.hpp"

namespace rbmix::analysis {

// ‖πK − π‖₁.
template <typename Operator>
double stationarity_residual(const Operator& op, const VectorD& stationary) {
  require(stationary.size() == op.rows(), "stationarity residual: π has the wrong length");
  return (apply_adjoint(op, stationary) - stationary).cwiseAbs().sum();
}

// max_x |Σ_y K(x, y) − 1|.
template <typename Operator>
double row_sum_error(const Operator& op) {
  return (apply(op, VectorD::Ones(op.rows())).array() - 1.0).abs().maxCoeff();
}

// max_{x,y} |π(x) K(x, y) − π(y) K(y, x)|: zero iff K is reversible with respect to π.
double detailed_balance_error(const MatrixD& matrix, const VectorD& stationary);

}  // namespace rbmix::analysis
