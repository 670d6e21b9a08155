#include "rbmix/model/pseudo_likelihood.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "rbmix/core/error.hpp"
#include "rbmix/random/random_stream.hpp"
#include "support/boltzmann_machine_models.hpp"
#include "support/brute_force.hpp"

namespace rbmix {
namespace {

// The conditionals from full energies in long double against the local-field formula in double.
constexpr double kRoundingTolerance = 1e-12;
// Central differences with step 1e-5 on values of size ~5: truncation ≈ 1e-10, rounding ≈ 1e-15 · 5 / 1e-5.
constexpr double kFiniteDifferenceStep = 1e-5;
constexpr double kFiniteDifferenceTolerance = 1e-7;

MatrixD random_states(Eigen::Index rows, Eigen::Index units, std::uint64_t seed) {
  RandomStream stream(seed, 0, StreamDomain::data);
  MatrixD states(rows, units);
  for (auto& entry : states.reshaped()) entry = stream.uniform() < 0.5 ? 1.0 : 0.0;
  return states;
}

TEST(MeanLogPseudoLikelihood, IsTheSumOfLogConditionalsFromFullEnergies) {
  const BoltzmannMachine model = testing::random_boltzmann_machine(5, 2.0, 3);
  const MatrixD states = random_states(12, 5, 1);
  long double expected = 0.0L;
  for (Eigen::Index row = 0; row < states.rows(); ++row) {
    const Eigen::RowVectorXd state = states.row(row);
    for (Eigen::Index unit = 0; unit < 5; ++unit) {
      Eigen::RowVectorXd flipped = state;
      flipped(unit) = 1.0 - flipped(unit);
      // p(x_i | x_−i) = e^{−E(x)} / (e^{−E(x)} + e^{−E(x with i flipped)}).
      const long double own = testing::brute_force_negative_energy(model, state);
      const long double other = testing::brute_force_negative_energy(model, flipped);
      expected -= std::log1p(std::exp(other - own));
    }
  }
  EXPECT_NEAR(mean_log_pseudo_likelihood(model, states), static_cast<double>(expected) / 12.0, kRoundingTolerance);
}

TEST(MeanLogPseudoLikelihood, StaysFiniteForHugeFields) {
  BoltzmannMachine model = BoltzmannMachine::zeros(2);
  model.biases << 800.0, -800.0;
  const MatrixD states = (MatrixD(1, 2) << 0.0, 1.0).finished();
  // Both units are in their improbable state: log σ(−800) + log σ(−800) = −1600.
  EXPECT_DOUBLE_EQ(mean_log_pseudo_likelihood(model, states), -1600.0);
}

TEST(LogPseudoLikelihoodGradient, MatchesFiniteDifferences) {
  const Eigen::Index units = 6;
  const BoltzmannMachine model = testing::random_boltzmann_machine(units, 1.0, 17);
  const MatrixD states = random_states(25, units, 2);
  const BoltzmannMachineGradient gradient = log_pseudo_likelihood_gradient(model, states);
  const auto value = [&](const BoltzmannMachine& shifted) { return mean_log_pseudo_likelihood(shifted, states); };
  for (Eigen::Index i = 0; i < units; ++i) {
    BoltzmannMachine up = model, down = model;
    up.biases(i) += kFiniteDifferenceStep;
    down.biases(i) -= kFiniteDifferenceStep;
    EXPECT_NEAR(gradient.biases(i), (value(up) - value(down)) / (2 * kFiniteDifferenceStep),
                kFiniteDifferenceTolerance);
    EXPECT_EQ(gradient.couplings(i, i), 0.0);
    for (Eigen::Index j = 0; j < i; ++j) {
      up = model;
      down = model;
      up.couplings(i, j) = up.couplings(j, i) = model.couplings(i, j) + kFiniteDifferenceStep;
      down.couplings(i, j) = down.couplings(j, i) = model.couplings(i, j) - kFiniteDifferenceStep;
      EXPECT_NEAR(gradient.couplings(i, j), (value(up) - value(down)) / (2 * kFiniteDifferenceStep),
                  kFiniteDifferenceTolerance);
      EXPECT_EQ(gradient.couplings(j, i), gradient.couplings(i, j));
    }
  }
}

TEST(MeanLogPseudoLikelihood, RefusesMismatchedColumns) {
  EXPECT_THROW(mean_log_pseudo_likelihood(BoltzmannMachine::zeros(3), MatrixD::Zero(2, 4)), InputError);
  EXPECT_THROW(log_pseudo_likelihood_gradient(BoltzmannMachine::zeros(3), MatrixD::Zero(0, 3)), InputError);
}

// The RBM's pseudo-likelihood against its visible marginal by brute force over all joint states (long double, no
// free energies): p(v_i | v_−i) = p(v) / (p(v) + p(v with i flipped)).
TEST(RbmMeanLogPseudoLikelihood, IsTheSumOfLogConditionalsOfTheBruteForceMarginal) {
  Rbm rbm(5, 3);
  RandomStream stream(11, 0, StreamDomain::data);
  for (auto& w : rbm.weights.reshaped()) w = 3.0 * (2.0 * stream.uniform() - 1.0);
  for (auto& b : rbm.visible_bias) b = 2.0 * stream.uniform() - 1.0;
  for (auto& c : rbm.hidden_bias) c = 2.0 * stream.uniform() - 1.0;
  const Eigen::VectorXd marginal = testing::brute_force_visible_marginal(rbm);
  const MatrixD rows = random_states(9, 5, 2);
  long double expected = 0.0L;
  for (Eigen::Index row = 0; row < rows.rows(); ++row) {
    std::uint64_t index = 0;
    for (Eigen::Index unit = 0; unit < 5; ++unit) index |= static_cast<std::uint64_t>(rows(row, unit)) << unit;
    for (Eigen::Index unit = 0; unit < 5; ++unit) {
      const long double own = marginal[static_cast<Eigen::Index>(index)];
      const long double other = marginal[static_cast<Eigen::Index>(index ^ (std::uint64_t{1} << unit))];
      expected += std::log(own / (own + other));
    }
  }
  expected /= static_cast<long double>(rows.rows());
  // The marginal is normalised in double (each entry to ~1e-16 relative), so the logs agree to ~1e-14.
  EXPECT_NEAR(mean_log_pseudo_likelihood(rbm, rows), static_cast<double>(expected), kRoundingTolerance);
}

TEST(RbmMeanLogPseudoLikelihood, RefusesGreyLevelsAndWrongWidths) {
  const Rbm rbm(4, 2);
  EXPECT_THROW(mean_log_pseudo_likelihood(rbm, MatrixD::Constant(2, 4, 0.5)), InputError);
  EXPECT_THROW(mean_log_pseudo_likelihood(rbm, MatrixD::Zero(2, 3)), InputError);
  EXPECT_THROW(mean_log_pseudo_likelihood(rbm, MatrixD::Zero(0, 4)), InputError);
}

}  // namespace
}  // namespace rbmix
