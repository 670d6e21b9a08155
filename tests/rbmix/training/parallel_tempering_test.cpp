#include "rbmix/training/parallel_tempering.hpp"

#include <gtest/gtest.h>

namespace rbmix {
namespace {

TEST(ParallelTempering, InverseTemperaturesAreUniformFromOneToZero) {
  const std::vector<double> expected{1.0, 0.75, 0.5, 0.25, 0.0};
  EXPECT_EQ(uniform_inverse_temperatures(5), expected);
}

// The swap probability against the Metropolis ratio p_i(x_j) p_j(x_i) / (p_i(x_i) p_j(x_j)), p_β(x) ∝ e^{−βE(x)},
// computed from the four unnormalised probabilities (the normalisers cancel).
TEST(ParallelTempering, SwapProbabilityIsTheMetropolisRatioOfTheExchange) {
  const double betas[] = {1.0, 0.8, 0.3, 0.0};
  const double energies[] = {-7.5, -2.0, 0.0, 1.25, 4.0};
  for (double beta_i : betas)
    for (double beta_j : betas)
      for (double energy_i : energies)
        for (double energy_j : energies) {
          const double ratio = std::exp(-beta_i * energy_j) * std::exp(-beta_j * energy_i) /
                               (std::exp(-beta_i * energy_i) * std::exp(-beta_j * energy_j));
          EXPECT_NEAR(replica_swap_probability(beta_i, beta_j, energy_i, energy_j), std::min(1.0, ratio),
                      1e-12 * std::max(1.0, ratio));
        }
}

TEST(ParallelTempering, ColderReplicaTakesTheLowerEnergyForSure) {
  EXPECT_EQ(replica_swap_probability(1.0, 0.5, 3.0, -2.0), 1.0);
  EXPECT_NEAR(replica_swap_probability(1.0, 0.5, -2.0, 3.0), std::exp(-2.5), 1e-15);
}

}  // namespace
}  // namespace rbmix
