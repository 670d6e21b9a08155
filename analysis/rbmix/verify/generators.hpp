#pragma once
// rapidcheck generators for property tests of samplers (target rbmix::verify_rapidcheck): tiny RBMs, with
// continuous parameters or with the exact ties (total input 0) where tie rules matter, and inputs of the unit-rule
// contract. Shared by the project's property tests and a user's.
#include <rapidcheck.h>

#include "rbmix/model/rbm.hpp"
#include "rbmix/verify/rule_contract.hpp"

namespace rbmix::verify {

// An RBM with the given layer sizes and parameters uniform in [−scale, scale] (as doubles drawn by rapidcheck).
rc::Gen<Rbm> arbitrary_rbm(int n_visible, int n_hidden, double scale);
// Layer sizes in [1, max_units] each, parameters in [−scale, scale].
rc::Gen<Rbm> arbitrary_tiny_rbm(int max_units, double scale);
// Integer weights in [−max_weight, max_weight] and zero biases: exact ties (total input 0) are common.
rc::Gen<Rbm> arbitrary_tied_rbm(int max_units, int max_weight);
// A nonzero input x with |x| in [largest_input/4000, largest_input], another input of its sign, and a decay in
// (0, 1) (the tie x = 0 is one point: check it on its own).
rc::Gen<RuleContractInput> arbitrary_rule_contract_input(double largest_input);

}  // namespace rbmix::verify
