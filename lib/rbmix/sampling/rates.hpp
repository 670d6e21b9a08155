#pragma once
// The sufficient statistics of an RBM in 001's notation, s(x, h) = (h xᵀ, x, h), and the rates R of 001 §4:
// the mean over a training set of s(x, E[h | x; θ]) under a trained θ. The rates samplers
// (docs/algorithms/estimation.md §4) use R as their constant positive phase; sample penalization uses R = 0.
#include "rbmix/core/types.hpp"
#include "rbmix/model/rbm.hpp"

namespace rbmix {

// One value of s, or a mean of several: the same shapes as the parameters (weights n × m, visible m, hidden n).
struct SufficientStatistics {
  MatrixD weights;
  VectorD visible;
  VectorD hidden;

  static SufficientStatistics zero(Eigen::Index n_visible, Eigen::Index n_hidden) {
    return {MatrixD::Zero(n_hidden, n_visible), VectorD::Zero(n_visible), VectorD::Zero(n_hidden)};
  }
  Eigen::Index n_visible() const { return weights.cols(); }
  Eigen::Index n_hidden() const { return weights.rows(); }
};

// R = (1/D) Σ_rows s(x, σ(c + W x)) over the D rows of `data` (one 0/1 sample per row). `source` names the data
// in errors: an empty set, a width other than the model's visible layer, or a value other than 0 and 1 is an
// InputError.
SufficientStatistics compute_rates(const Rbm& rbm, const BinaryMatrix& data, const std::string& source);

}  // namespace rbmix
