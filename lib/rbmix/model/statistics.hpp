#pragma once
// Sufficient statistics of an RBM, ⟨h vᵀ⟩, ⟨v⟩, ⟨h⟩, and the log-likelihood gradient built from them
// (docs/algorithms.md §1): ∇W = ⟨h vᵀ⟩_data − ⟨h vᵀ⟩_model, ∇b = ⟨v⟩_d − ⟨v⟩_m, ∇c = ⟨h⟩_d − ⟨h⟩_m.
// The hidden side always uses E[h|v] where the estimator allows it.
#include "rbmix/model/rbm.hpp"

namespace rbmix {

template <typename Scalar>
struct BasicStatistics {
  Matrix<Scalar> hidden_visible;  // ⟨h vᵀ⟩, n × m
  Vector<Scalar> visible;         // ⟨v⟩, m
  Vector<Scalar> hidden;          // ⟨h⟩, n
};
using Statistics = BasicStatistics<double>;

// Mean statistics of a batch (one sample per row): ⟨h vᵀ⟩ = Hᵀ V / B.
template <typename DerivedV, typename DerivedH>
auto batch_statistics(const Eigen::MatrixBase<DerivedV>& visible, const Eigen::MatrixBase<DerivedH>& hidden) {
  using Scalar = typename DerivedH::Scalar;
  const Scalar inverse_batch = Scalar(1) / static_cast<Scalar>(visible.rows());
  BasicStatistics<Scalar> out;
  out.hidden_visible.noalias() = inverse_batch * (hidden.transpose() * visible.template cast<Scalar>());
  out.visible = visible.template cast<Scalar>().colwise().mean().transpose();
  out.hidden = hidden.colwise().mean().transpose();
  return out;
}

// The same for visible 0/1 states (chain states, binarised data): ⟨h vᵀ⟩ sums the rows of H that each visible
// unit's ones select (binary_product.hpp) when there are few enough ones, else it is the dense product. Equal to
// batch_statistics to within rounding, and the same whatever the thread count; InputError if `visible` holds a
// value other than 0 and 1.
template <typename Scalar>
BasicStatistics<Scalar> binary_batch_statistics(const Matrix<Scalar>& visible, const Matrix<Scalar>& hidden) {
  if (!use_binary_product(visible, "binary_batch_statistics")) return batch_statistics(visible, hidden);
  const Scalar inverse_batch = Scalar(1) / static_cast<Scalar>(visible.rows());
  BasicStatistics<Scalar> out;
  transpose_times_binary(hidden, visible, out.hidden_visible);
  out.hidden_visible *= inverse_batch;
  out.visible = visible.colwise().mean().transpose();
  out.hidden = hidden.colwise().mean().transpose();
  return out;
}

// Gradient of the average log-likelihood in the shape of the parameters: positive minus negative statistics.
template <typename Scalar>
BasicRbm<Scalar> statistics_difference(const BasicStatistics<Scalar>& positive,
                                       const BasicStatistics<Scalar>& negative) {
  BasicRbm<Scalar> gradient;
  gradient.weights = positive.hidden_visible - negative.hidden_visible;
  gradient.visible_bias = positive.visible - negative.visible;
  gradient.hidden_bias = positive.hidden - negative.hidden;
  return gradient;
}

}  // namespace rbmix
