#include "rbmix/experiments/random_rbm_family.hpp"

#include "rbmix/random/random_stream.hpp"

namespace rbmix::experiments {

Rbm fig3_random_rbm(std::uint64_t seed, int size, int weight_bound, int index) {
  // The stream of RBM (size, c, index): a key no other RBM shares.
  RandomStream stream(seed,
                      (static_cast<std::uint64_t>(size) << 48) | (static_cast<std::uint64_t>(weight_bound) << 32) |
                          static_cast<std::uint64_t>(index),
                      StreamDomain::experiment);
  Rbm rbm(size, size);
  for (Eigen::Index i = 0; i < rbm.weights.rows(); ++i)
    for (Eigen::Index j = 0; j < rbm.weights.cols(); ++j)
      rbm.weights(i, j) = weight_bound * (2.0 * stream.uniform() - 1.0);
  return rbm;
}

}  // namespace rbmix::experiments
