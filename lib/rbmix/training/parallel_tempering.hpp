#pragma once
// The two formulas of parallel tempering (003 §4.2) that the t-PT k negative phase uses.
#include <cmath>
#include <vector>

namespace rbmix {

// t inverse temperatures uniform in [0, 1], hottest last: β_i = 1 − i/(t − 1), i = 0 … t−1, so β_0 = 1 gives the
// negative sample and β_{t−1} = 0 is the uniform distribution, whose replica is fresh noise after every sweep.
// (003 says only "uniformly between 0 and 1"; rbmix includes both ends, as the Shark library 003 used does.)
inline std::vector<double> uniform_inverse_temperatures(int replicas) {
  std::vector<double> betas(static_cast<std::size_t>(replicas));
  for (int i = 0; i < replicas; ++i) betas[static_cast<std::size_t>(i)] = 1.0 - static_cast<double>(i) / (replicas - 1);
  return betas;
}

// Probability of exchanging the states of neighbouring replicas at β_i and β_j with energies E_i = E(x_i) and
// E_j = E(x_j) (energies at β = 1): min(1, exp((β_i − β_j)(E_i − E_j))), the Metropolis ratio
// p_i(x_j) p_j(x_i) / (p_i(x_i) p_j(x_j)) for p_β ∝ e^{−βE}.
inline double replica_swap_probability(double beta_i, double beta_j, double energy_i, double energy_j) {
  const double log_ratio = (beta_i - beta_j) * (energy_i - energy_j);
  return log_ratio >= 0.0 ? 1.0 : std::exp(log_ratio);
}

}  // namespace rbmix
