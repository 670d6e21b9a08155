#include "rbmix/experiments/random_rbm_family.hpp"

#include <string>

#include "rbmix/core/error.hpp"
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

void Fig3RbmFamily::validate(int largest_size) const {
  require(!sizes.empty(), "--sizes: give at least one size");
  for (const int size : sizes)
    require(size >= 1 && size <= largest_size,
            "--sizes: m = n = " + std::to_string(size) + " is outside 1.." + std::to_string(largest_size));
  require(!weight_bounds.empty(), "--c: give at least one weight bound");
  for (const int bound : weight_bounds) require(bound >= 0, "--c: weight bounds must be ≥ 0");
  require(rbms_per_setting > 0, "--count must be positive");
}

nlohmann::json to_json(const Fig3RbmFamily& family) {
  return {{"sizes", family.sizes}, {"c", family.weight_bounds}, {"rbms_per_setting", family.rbms_per_setting}};
}

void read_family_options(const ExperimentInputs& inputs, Fig3RbmFamily& family) {
  if (const auto sizes = inputs.integers("--sizes", 1)) family.sizes.assign(sizes->begin(), sizes->end());
  if (const auto bounds = inputs.integers("--c", 1)) family.weight_bounds.assign(bounds->begin(), bounds->end());
  if (const auto count = inputs.integer("--count", 1)) family.rbms_per_setting = static_cast<int>(*count);
}

}  // namespace rbmix::experiments
