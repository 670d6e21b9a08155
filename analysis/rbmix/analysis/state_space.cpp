#include "rbmix/analysis/state_space.hpp"

#include <cmath>

namespace rbmix::analysis {

JointStateSpace::JointStateSpace(int n_visible, int n_hidden) : n_visible_(n_visible), n_hidden_(n_hidden) {
  require(n_visible > 0 && n_hidden > 0, "joint state space: both layers need at least one unit");
  require(n_visible + n_hidden <= max_joint_units,
          "joint state space: " + std::to_string(n_visible + n_hidden) + " units give 2^" +
              std::to_string(n_visible + n_hidden) + " joint states; at most 2^" + std::to_string(max_joint_units) +
              " are supported");
}

VectorD JointStateSpace::bits(std::uint64_t layer_state, int units) {
  VectorD out(units);
  for (int k = 0; k < units; ++k) out[k] = bit(layer_state, k);
  return out;
}

VectorD JointStateSpace::energies(const Rbm& rbm) const {
  require(rbm.n_visible() == n_visible_ && rbm.n_hidden() == n_hidden_, "joint state space: RBM shape differs");
  // E(v,h) = −bᵀv − hᵀ(c + Wv): one pass over visible states, then every hidden state.
  VectorD out(static_cast<Eigen::Index>(size()));
  MatrixD hidden_rows(static_cast<Eigen::Index>(hidden_states()), n_hidden_);
  for (std::uint64_t h = 0; h < hidden_states(); ++h)
    hidden_rows.row(static_cast<Eigen::Index>(h)) = bits(h, n_hidden_).transpose();
  for (std::uint64_t v = 0; v < visible_states(); ++v) {
    const VectorD visible = bits(v, n_visible_);
    const VectorD hidden_field = rbm.hidden_bias + rbm.weights * visible;
    const double visible_term = rbm.visible_bias.dot(visible);
    const VectorD per_hidden = hidden_rows * hidden_field;
    for (std::uint64_t h = 0; h < hidden_states(); ++h)
      out[static_cast<Eigen::Index>(index(v, h))] = -(visible_term + per_hidden[static_cast<Eigen::Index>(h)]);
  }
  return out;
}

VectorD JointStateSpace::stationary_distribution(const Rbm& rbm) const {
  const VectorD log_weights = -energies(rbm);
  // An infinite or NaN energy (parameters near the largest double) leaves π undefined, and every analysis built
  // on it would fail far from the cause.
  require(log_weights.allFinite(),
          "the energies E(v, h) are not all finite in double precision (parameters too large), so the stationary "
          "distribution is undefined");
  const double max = log_weights.maxCoeff();
  VectorD weights = (log_weights.array() - max).exp().matrix();
  return weights / weights.sum();
}

}  // namespace rbmix::analysis
