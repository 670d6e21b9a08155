#pragma once
// A small training trajectory for the ladder tests: rung 0 without couplings, then the models θ·s for growing
// scales s of one random direction θ (weights U[−1, 1], biases U[−½, ½]), as a run that grows its weights draws one.
#include <cstdint>
#include <string>
#include <vector>

#include "rbmix/model/rbm.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/sampling/model_path.hpp"

namespace rbmix::testing {

inline std::vector<Rbm> small_trajectory(Eigen::Index n_visible, Eigen::Index n_hidden, std::uint64_t seed,
                                         const std::vector<double>& scales) {
  RandomStream stream(seed, 0, StreamDomain::experiment);
  Rbm direction(n_visible, n_hidden);
  for (Eigen::Index k = 0; k < direction.weights.size(); ++k) direction.weights.data()[k] = 2.0 * stream.uniform() - 1;
  for (Eigen::Index j = 0; j < n_visible; ++j) direction.visible_bias[j] = stream.uniform() - 0.5;
  for (Eigen::Index i = 0; i < n_hidden; ++i) direction.hidden_bias[i] = stream.uniform() - 0.5;
  std::vector<Rbm> rungs;
  Rbm independent(n_visible, n_hidden);
  independent.visible_bias = 0.3 * direction.visible_bias;
  rungs.push_back(independent);
  for (const double scale : scales) {
    Rbm rung = direction;
    rung.weights *= scale;
    rung.visible_bias *= scale;
    rung.hidden_bias *= scale;
    rungs.push_back(rung);
  }
  return rungs;
}

// The same models as a ModelPath, its knots labelled by their index.
inline ModelPath small_trajectory_path(Eigen::Index n_visible, Eigen::Index n_hidden, std::uint64_t seed,
                                       const std::vector<double>& scales) {
  std::vector<Rbm> knots = small_trajectory(n_visible, n_hidden, seed, scales);
  std::vector<std::string> labels;
  for (std::size_t k = 0; k < knots.size(); ++k) labels.push_back(std::to_string(k));
  return ModelPath(std::move(knots), std::move(labels));
}

// p(v) of a model small enough to enumerate its visible states, state v holding unit j in bit j.
inline VectorD visible_marginal(const Rbm& rbm) {
  const Eigen::Index states = Eigen::Index{1} << rbm.n_visible();
  MatrixD visible(states, rbm.n_visible());
  for (Eigen::Index v = 0; v < states; ++v)
    for (Eigen::Index j = 0; j < rbm.n_visible(); ++j) visible(v, j) = static_cast<double>((v >> j) & 1);
  const VectorD log_unnormalised = -rbm.free_energy(visible);
  const VectorD unnormalised = (log_unnormalised.array() - log_unnormalised.maxCoeff()).exp();
  return unnormalised / unnormalised.sum();
}

// The index of a visible state in visible_marginal's order.
inline std::uint64_t visible_state_index(const VectorD& visible) {
  std::uint64_t v = 0;
  for (Eigen::Index j = 0; j < visible.size(); ++j) v |= std::uint64_t{visible[j] != 0.0} << j;
  return v;
}

}  // namespace rbmix::testing
