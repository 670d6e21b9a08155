#pragma once
// The random RBMs of 003 Fig. 3, shared by the experiments and the demo that analyse them (slem-sweep,
// modified-sweep, `rbmix demo`): RBM (size, c, index) has m = n = size, W ~ U[−c, c] drawn from the stream keyed by
// (size, c, index), biases 0, so every experiment that names the same triple and seed gets the same RBM.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "rbmix/experiments/experiment.hpp"
#include "rbmix/model/rbm.hpp"

namespace rbmix::experiments {

Rbm fig3_random_rbm(std::uint64_t seed, int size, int weight_bound, int index);

// The family's RBMs an experiment analyses: rbms_per_setting RBMs for every (size, c) of sizes × weight_bounds,
// 003 Fig. 3's by default. Set by the options --sizes, --c and --count.
struct Fig3RbmFamily {
  std::vector<int> sizes{2, 3, 4};
  std::vector<int> weight_bounds{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  int rbms_per_setting = 100;
  // Throws InputError naming the option that is out of range; m = n may be at most `largest_size`.
  void validate(int largest_size) const;
};

// The family's part of an experiment's configuration: sizes, c, rbms_per_setting.
nlohmann::json to_json(const Fig3RbmFamily& family);
// Sets what --sizes, --c and --count give in `inputs`.
void read_family_options(const ExperimentInputs& inputs, Fig3RbmFamily& family);

}  // namespace rbmix::experiments
