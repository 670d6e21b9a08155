#pragma once
// Tempering (docs/algorithms/operators.md §2): the distribution π_β(v, h) ∝ e^{−βE(v, h)} at inverse temperature β ≥ 0.
// Samplers temper through the layer inputs, β(c + W v) and β(b + Wᵀ h), formed in one place
// (BasicRbm::layer_inputs); `tempered` gives the RBM whose energy is βE, for code that needs the tempered
// distribution itself (its energies, its stationary distribution). The two agree up to rounding: β(c + W v) is
// (βc) + (βW) v.
#include "rbmix/model/rbm.hpp"

namespace rbmix {

// Throws InputError unless β is finite and ≥ 0.
void validate_inverse_temperature(double inverse_temperature);

// The RBM whose energy is β times the original, so that π_β ∝ e^{−βE} is its Boltzmann distribution.
Rbm tempered(const Rbm& rbm, double inverse_temperature);

}  // namespace rbmix
