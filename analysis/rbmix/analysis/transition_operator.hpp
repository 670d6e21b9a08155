#pragma once
// The transition-operator concept every exact analysis routine works on (after Spectra's matrix "op"). An
// operator K on the N joint states provides
//   using Scalar = double;
//   Eigen::Index rows() const, cols() const;              the number of joint states N
//   void perform_op(const double* x, double* y) const;    y = K x: x a function of the state, y(s) = E[x(next) | s]
//   void perform_adjoint_op(const double* x, double* y) const;
//                                                         y = Kᵀ x: x a distribution, y the distribution one step on
//   VectorD diagonal() const;                             K(s, s) for every state s
// and promises that K is row-stochastic (non-negative entries, rows summing to 1). Dense matrices (DenseOperator),
// the matrix-free sweep (SweepOperator) and the modified matrix of either (ModifiedOperator) all model it, so
// stationarity checks, SLEM and autocorrelation times are written once.
#include <concepts>

#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/core/types.hpp"

namespace rbmix::analysis {

template <typename Operator>
concept TransitionOperator = std::same_as<typename Operator::Scalar, double> &&
    requires(const Operator& op, const double* x, double* y) {
  { op.rows() } -> std::convertible_to<Eigen::Index>;
  { op.cols() } -> std::convertible_to<Eigen::Index>;
  op.perform_op(x, y);
  op.perform_adjoint_op(x, y);
  { op.diagonal() } -> std::convertible_to<VectorD>;
};

// y = K x and y = Kᵀ x as vectors, for any operator.
template <TransitionOperator Operator>
VectorD apply(const Operator& op, const VectorD& x) {
  VectorD y(op.rows());
  op.perform_op(x.data(), y.data());
  return y;
}
template <TransitionOperator Operator>
VectorD apply_adjoint(const Operator& op, const VectorD& x) {
  VectorD y(op.rows());
  op.perform_adjoint_op(x.data(), y.data());
  return y;
}

// A dense row-major matrix as an operator. It keeps a reference: the matrix must outlive it.
class DenseOperator {
 public:
  using Scalar = double;
  explicit DenseOperator(const MatrixD& matrix) : matrix_(matrix) {
    require(matrix.rows() == matrix.cols(), "transition operator: the matrix must be square");
  }
  Eigen::Index rows() const { return matrix_.rows(); }
  Eigen::Index cols() const { return matrix_.cols(); }
  void perform_op(const double* x, double* y) const {
    Eigen::Map<VectorD>(y, rows()).noalias() = matrix_ * Eigen::Map<const VectorD>(x, cols());
  }
  void perform_adjoint_op(const double* x, double* y) const {
    Eigen::Map<VectorD>(y, rows()).noalias() = matrix_.transpose() * Eigen::Map<const VectorD>(x, cols());
  }
  VectorD diagonal() const { return matrix_.diagonal(); }

 private:
  const MatrixD& matrix_;
};
static_assert(TransitionOperator<DenseOperator>);

// A' = (A − λI)/(1 − λ) of any operator A (001 §3), without forming it. Keeps a reference to A.
template <TransitionOperator Operator>
class ModifiedOperator {
 public:
  using Scalar = double;
  // Throws InputError unless 0 ≤ λ ≤ min_x A(x, x) and λ < 1.
  ModifiedOperator(const Operator& base, double lambda) : base_(base), lambda_(lambda) {
    validate_modification(lambda, base.diagonal().minCoeff());
  }
  Eigen::Index rows() const { return base_.rows(); }
  Eigen::Index cols() const { return base_.cols(); }
  double lambda() const { return lambda_; }
  void perform_op(const double* x, double* y) const {
    base_.perform_op(x, y);
    modify(x, y);
  }
  void perform_adjoint_op(const double* x, double* y) const {
    base_.perform_adjoint_op(x, y);
    modify(x, y);
  }
  VectorD diagonal() const { return (base_.diagonal().array() - lambda_) / (1.0 - lambda_); }

 private:
  // y ← (y − λx)/(1 − λ), where y = A x (or Aᵀ x: I is symmetric).
  void modify(const double* x, double* y) const {
    Eigen::Map<VectorD> out(y, rows());
    out = (out - lambda_ * Eigen::Map<const VectorD>(x, cols())) / (1.0 - lambda_);
  }
  const Operator& base_;
  double lambda_;
};

}  // namespace rbmix::analysis
