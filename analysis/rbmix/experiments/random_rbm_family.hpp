#pragma once
// The random RBMs of 003 Fig. 3, shared by the experiments and the demo that analyse them (slem-sweep,
// modified-sweep, `rbmix demo`): RBM (size, c, index) has m = n = size, W ~ U[−c, c] drawn from the stream keyed by
// (size, c, index), biases 0, so every experiment that names the same triple and seed gets the same RBM.
#include <cstdint>

#include "rbmix/model/rbm.hpp"

namespace rbmix::experiments {

Rbm fig3_random_rbm(std::uint64_t seed, int size, int weight_bound, int index);

}  // namespace rbmix::experiments
