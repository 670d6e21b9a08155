#pragma once
// Small fixed models and data for the training tests.
#include <cstdint>

#include "rbmix/model/rbm.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix::testing {

// An RBM with W ~ U[−scale, scale] and biases ~ U[−scale/2, scale/2], reproducible from `seed`.
inline Rbm random_rbm(Eigen::Index n_visible, Eigen::Index n_hidden, double scale, std::uint64_t seed) {
  Rbm rbm(n_visible, n_hidden);
  RandomStream stream(seed, 0, StreamDomain::experiment);
  for (Eigen::Index k = 0; k < rbm.weights.size(); ++k) rbm.weights.data()[k] = scale * (2.0 * stream.uniform() - 1.0);
  for (Eigen::Index j = 0; j < n_visible; ++j) rbm.visible_bias[j] = scale * (stream.uniform() - 0.5);
  for (Eigen::Index i = 0; i < n_hidden; ++i) rbm.hidden_bias[i] = scale * (stream.uniform() - 0.5);
  return rbm;
}

// `rows` random 0/1 rows, reproducible from `seed`.
inline MatrixD random_binary_rows(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed) {
  MatrixD data(rows, cols);
  RandomStream stream(seed, 1, StreamDomain::experiment);
  for (Eigen::Index k = 0; k < data.size(); ++k) data.data()[k] = stream.uniform() < 0.5 ? 0.0 : 1.0;
  return data;
}

}  // namespace rbmix::testing
