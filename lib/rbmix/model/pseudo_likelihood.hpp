#pragma once
// Pseudo-likelihood of a Boltzmann machine (Besag 1986; the PL baseline of 000 §5.5):
//   log PL(x) = Σ_i log p(x_i | x_−i) = Σ_i [x_i h_i − softplus(h_i)],   h_i = b_i + Σ_j J_ij x_j.
// Its gradient needs no partition function: with residuals r_i = x_i − σ(h_i),
//   ∂/∂b_i = r_i,   ∂/∂J_ij = r_i x_j + r_j x_i   (one coupling per pair, as in boltzmann_machine.hpp).
#include "rbmix/model/boltzmann_machine.hpp"

namespace rbmix {

// Mean log PL over the rows of `states` (entries 0/1, one state per row).
double mean_log_pseudo_likelihood(const BoltzmannMachine& model, const MatrixD& states);

// Gradient of mean_log_pseudo_likelihood with respect to the couplings (symmetric, zero diagonal) and biases.
BoltzmannMachineGradient log_pseudo_likelihood_gradient(const BoltzmannMachine& model, const MatrixD& states);

}  // namespace rbmix
