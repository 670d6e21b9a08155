#pragma once
// Sufficient statistics of an RBM, ⟨h vᵀ⟩, ⟨v⟩, ⟨h⟩, and the log-likelihood gradient built from them
// (docs/algorithms/operators.md §1): ∇W = ⟨h vᵀ⟩_data − ⟨h vᵀ⟩_model, ∇b = ⟨v⟩_d − ⟨v⟩_m, ∇c = ⟨h⟩_d − ⟨h⟩_m.
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

// Mean statistics of a batch (one sample per row): ⟨h vᵀ⟩ = Hᵀ V / B, written into `out` (no allocation once its
// matrices are sized).
template <typename DerivedV, typename DerivedH>
void batch_statistics(const Eigen::MatrixBase<DerivedV>& visible, const Eigen::MatrixBase<DerivedH>& hidden,
                      BasicStatistics<typename DerivedH::Scalar>& out) {
  using Scalar = typename DerivedH::Scalar;
  const Scalar inverse_batch = Scalar(1) / static_cast<Scalar>(visible.rows());
  fixed_split_product(hidden.transpose(), visible.template cast<Scalar>(), out.hidden_visible, inverse_batch);
  out.visible = visible.template cast<Scalar>().colwise().mean().transpose();
  out.hidden = hidden.colwise().mean().transpose();
}

template <typename DerivedV, typename DerivedH>
auto batch_statistics(const Eigen::MatrixBase<DerivedV>& visible, const Eigen::MatrixBase<DerivedH>& hidden) {
  BasicStatistics<typename DerivedH::Scalar> out;
  batch_statistics(visible, hidden, out);
  return out;
}

// The same for visible 0/1 states (chain states, binarised data): ⟨h vᵀ⟩ sums the rows of H that each visible
// unit's ones select (binary_product.hpp) when there are few enough ones, else it is the dense product. Equal to
// batch_statistics to within rounding, and the same whatever the thread count; InputError if `visible` holds a
// value other than 0 and 1. `paths`: the product paths it may take (binary_product.hpp).
template <typename Scalar>
void binary_batch_statistics(const Matrix<Scalar>& visible, const Matrix<Scalar>& hidden, BasicStatistics<Scalar>& out,
                             ProductPaths paths = {}) {
  const Scalar inverse_batch = Scalar(1) / static_cast<Scalar>(visible.rows());
  if (!try_transpose_times_binary(hidden, visible, out.hidden_visible, "binary_batch_statistics", inverse_batch,
                                  paths)) {
    batch_statistics(visible, hidden, out);
    return;
  }
  out.visible = visible.colwise().mean().transpose();
  out.hidden = hidden.colwise().mean().transpose();
}

template <typename Scalar>
BasicStatistics<Scalar> binary_batch_statistics(const Matrix<Scalar>& visible, const Matrix<Scalar>& hidden,
                                                ProductPaths paths = {}) {
  BasicStatistics<Scalar> out;
  binary_batch_statistics(visible, hidden, out, paths);
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

// The same written into `gradient` in double whatever the statistics' precision (the trainer's master parameters
// are double): the difference is formed in Scalar and widened in the same pass.
template <typename Scalar>
void statistics_difference(const BasicStatistics<Scalar>& positive, const BasicStatistics<Scalar>& negative,
                           Rbm& gradient) {
  gradient.weights.noalias() = (positive.hidden_visible - negative.hidden_visible).template cast<double>();
  gradient.visible_bias.noalias() = (positive.visible - negative.visible).template cast<double>();
  gradient.hidden_bias.noalias() = (positive.hidden - negative.hidden).template cast<double>();
}

}  // namespace rbmix
