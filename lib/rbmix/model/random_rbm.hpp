#pragma once
// A random RBM as 003 §4.1 makes them: weights uniform in [−C, C], biases uniform in [−B, B] (003 uses B = 0). The
// command `rbmix model random` and the Python front-end's random_model make their models here, so the same seed
// gives the same model through either.
#include <cstdint>

#include "rbmix/model/rbm.hpp"

namespace rbmix {

// W, then b, then c, each in row-major order, uniform in [−range, range], from RandomStream(seed, 0,
// StreamDomain::initialisation). Throws InputError unless both layers have units and both ranges are finite and
// non-negative.
Rbm uniform_random_rbm(Eigen::Index n_visible, Eigen::Index n_hidden, double weight_range, double bias_range,
                       std::uint64_t seed);

}  // namespace rbmix
