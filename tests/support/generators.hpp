#pragma once
// rapidcheck generators for tiny RBMs, shared by every property test.
#include <rapidcheck.h>

#include "rbmix/model/rbm.hpp"

namespace rbmix::testing {

// An RBM with the given layer sizes and parameters uniform in [−scale, scale] (as doubles drawn by rapidcheck).
rc::Gen<Rbm> arbitrary_rbm(int n_visible, int n_hidden, double scale);
// Layer sizes in [1, max_units] each, parameters in [−scale, scale].
rc::Gen<Rbm> arbitrary_tiny_rbm(int max_units, double scale);
// Integer weights in [−max_weight, max_weight] and zero biases: exact ties (total input 0) are common.
rc::Gen<Rbm> arbitrary_tied_rbm(int max_units, int max_weight);

}  // namespace rbmix::testing
