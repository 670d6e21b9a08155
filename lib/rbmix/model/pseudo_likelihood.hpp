#pragma once
// Pseudo-likelihood of a Boltzmann machine (Besag 1986; the PL baseline of 000 §5.5):
//   log PL(x) = Σ_i log p(x_i | x_−i) = Σ_i [x_i h_i − softplus(h_i)],   h_i = b_i + Σ_j J_ij x_j.
// Its gradient needs no partition function: with residuals r_i = x_i − σ(h_i),
//   ∂/∂b_i = r_i,   ∂/∂J_ij = r_i x_j + r_j x_i   (one coupling per pair, as in boltzmann_machine.hpp).
#include "rbmix/model/boltzmann_machine.hpp"
#include "rbmix/model/rbm.hpp"

namespace rbmix {

// Mean log PL over the rows of `states` (entries 0/1, one state per row).
double mean_log_pseudo_likelihood(const BoltzmannMachine& model, const MatrixD& states);

// Gradient of mean_log_pseudo_likelihood with respect to the couplings (symmetric, zero diagonal) and biases.
BoltzmannMachineGradient log_pseudo_likelihood_gradient(const BoltzmannMachine& model, const MatrixD& states);

// Mean log PL of the visible rows of `data` (entries 0/1) under an RBM's marginal p(v) ∝ e^{−F(v)}, over all visible
// units. With v⁽ⁱ⁾ the row with unit i flipped, s_i = 1 − 2v_i and x = c + W v,
//   log p(v_i | v_−i) = −softplus(F(v) − F(v⁽ⁱ⁾)),   F(v) − F(v⁽ⁱ⁾) = s_i b_i + Σ_j [softplus(x_j + s_i W_ji) − softplus(x_j)],
// so no partition function is needed (a proxy for the log-likelihood that training can monitor at any size). Costs
// m·n softplus per row; each row's sum is formed alone and the rows are added in order, so the value does not depend
// on the thread count.
double mean_log_pseudo_likelihood(const Rbm& rbm, const MatrixD& data);

}  // namespace rbmix
