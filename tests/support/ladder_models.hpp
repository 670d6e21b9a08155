#pragma once
// A small training trajectory for the ladder tests: rung 0 without couplings, then the models θ·s for growing
// scales s of one random direction θ (weights U[−1, 1], biases U[−½, ½]), as a run that grows its weights draws one.
#include <vector>

#include "rbmix/model/rbm.hpp"
#include "rbmix/random/random_stream.hpp"

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

}  // namespace rbmix::testing
