#include "rbmix/model/boltzmann_machine_enumeration.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>

#include "rbmix/core/error.hpp"
#include "rbmix/random/random_stream.hpp"
#include "support/boltzmann_machine_models.hpp"
#include "support/brute_force.hpp"

namespace rbmix {
namespace {

// Gray-code enumeration in double against brute force in long double: rounding in incremental sums of ≤ 2^13
// terms of size ≤ 40 and in ≤ 2^13 exponentials.
constexpr double kLogPartitionTolerance = 1e-10;
// Probabilities and moments are sums of ≤ 2^20 terms ≤ 1: rounding ≈ √(2^20)·2^−53 ≈ 1e-13 typical, 1e-10 margin.
constexpr double kMomentTolerance = 1e-10;
// Central differences with step 1e-5 on log-likelihoods of size ~10: truncation O(h²) ≈ 1e-10, rounding
// ≈ 1e-15 · 10 / 1e-5 = 1e-9.
constexpr double kFiniteDifferenceStep = 1e-5;
constexpr double kFiniteDifferenceTolerance = 1e-7;

double softplus(double x) { return std::max(x, 0.0) + std::log1p(std::exp(-std::abs(x))); }

BinaryMatrix random_binary_data(Eigen::Index rows, Eigen::Index units, std::uint64_t seed) {
  RandomStream stream(seed, 0, StreamDomain::data);
  BinaryMatrix data(rows, units);
  for (auto& entry : data.reshaped()) entry = stream.uniform() < 0.4 ? 1 : 0;
  return data;
}

TEST(ExactLogPartition, MatchesBruteForceFromOneUnitToThirteen) {
  // Sizes below and above 12 units, where the fixed block split reaches its 2^6 blocks.
  for (Eigen::Index units = 1; units <= 13; ++units) {
    const BoltzmannMachine model = testing::random_boltzmann_machine(units, 1.5, 100 + units);
    EXPECT_NEAR(exact_log_partition(model), static_cast<double>(testing::brute_force_log_partition(model)),
                kLogPartitionTolerance)
        << units << " units";
  }
}

TEST(ExactLogPartition, LargeCouplingsNeedTheLogSumExp) {
  const BoltzmannMachine model = testing::random_boltzmann_machine(10, 60.0, 7);
  const double expected = static_cast<double>(testing::brute_force_log_partition(model));
  EXPECT_NEAR(exact_log_partition(model), expected, kLogPartitionTolerance * std::abs(expected));
}

TEST(ExactLogPartition, ZeroCouplingsGiveTheSumOfSoftplusBiases) {
  // Independent units: Z = Π_i (1 + e^{b_i}), so log Z = Σ softplus(b_i) (n log 2 when b = 0). 25 units is the
  // size 000 §5.5 enumerates.
  for (const Eigen::Index units : {Eigen::Index{20}, kMaxEnumeratedBoltzmannMachineUnits}) {
    BoltzmannMachine model = BoltzmannMachine::zeros(units);
    EXPECT_NEAR(exact_log_partition(model), static_cast<double>(units) * std::log(2.0),
                kLogPartitionTolerance * static_cast<double>(units));
    model.biases = testing::random_boltzmann_machine(units, 3.0, 5).biases;
    double expected = 0.0;
    for (const double bias : model.biases) expected += softplus(bias);
    EXPECT_NEAR(exact_log_partition(model), expected, kLogPartitionTolerance * static_cast<double>(units));
  }
}

TEST(ExactSummary, ZeroCouplingsGiveIndependentMoments) {
  // Independent units: E[x_i] = σ(b_i) and E[x_i x_j] = σ(b_i) σ(b_j) for i ≠ j; 20 units use all 64 blocks.
  const Eigen::Index units = 20;
  BoltzmannMachine model = BoltzmannMachine::zeros(units);
  model.biases = testing::random_boltzmann_machine(units, 3.0, 6).biases;
  const VectorD means = (1.0 + (-model.biases.array()).exp()).inverse();
  MatrixD expected = means * means.transpose();
  expected.diagonal() = means;
  const ExactBoltzmannMachineSummary summary = exact_summary(model);
  EXPECT_LT((summary.statistics.second_moments - expected).cwiseAbs().maxCoeff(), kMomentTolerance);
  EXPECT_LT((summary.statistics.means - means).cwiseAbs().maxCoeff(), kMomentTolerance);
}

TEST(ExactLogPartition, DoesNotDependOnTheThreadCount) {
  const BoltzmannMachine model = testing::random_boltzmann_machine(16, 1.0, 9);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const ExactBoltzmannMachineSummary one_thread = exact_summary(model);
  omp_set_num_threads(3);
  const ExactBoltzmannMachineSummary three_threads = exact_summary(model);
  omp_set_num_threads(threads);
  EXPECT_EQ(one_thread.log_partition, three_threads.log_partition);
  EXPECT_EQ(one_thread.statistics.second_moments, three_threads.statistics.second_moments);
}

// Training's statistics stop at 25 units; one log Z (scoring a fitted model) goes on to 30. 26 units, 2^26 states,
// take about a second.
TEST(ExactLogPartition, ALogPartitionAloneEnumeratesBeyondTrainingsLimit) {
  const Eigen::Index units = kMaxEnumeratedBoltzmannMachineUnits + 1;
  BoltzmannMachine model = BoltzmannMachine::zeros(units);
  model.biases = testing::random_boltzmann_machine(units, 3.0, 7).biases;
  double expected = 0.0;
  for (const double bias : model.biases) expected += softplus(bias);
  EXPECT_NEAR(exact_log_partition(model), expected, kLogPartitionTolerance * static_cast<double>(units));
  EXPECT_THROW(exact_summary(model), InputError);
}

TEST(ExactLogPartition, RefusesTooManyUnitsAndInvalidModels) {
  EXPECT_THROW(exact_log_partition(BoltzmannMachine::zeros(kMaxEnumeratedLogPartitionUnits + 1)), InputError);
  EXPECT_THROW(exact_summary(BoltzmannMachine::zeros(kMaxEnumeratedBoltzmannMachineUnits + 1)), InputError);
  BoltzmannMachine model = BoltzmannMachine::zeros(3);
  model.couplings(0, 2) = 1.0;
  EXPECT_THROW(exact_log_partition(model), InputError);
}

TEST(ExactSummary, MomentsMatchBruteForce) {
  for (const Eigen::Index units : {Eigen::Index{5}, Eigen::Index{13}}) {
    const BoltzmannMachine model = testing::random_boltzmann_machine(units, 1.0, 40 + units);
    const Eigen::VectorXd probabilities = testing::brute_force_probabilities(model);
    MatrixD expected = MatrixD::Zero(units, units);
    for (Eigen::Index index = 0; index < probabilities.size(); ++index) {
      const Eigen::RowVectorXd state = testing::bits_of(static_cast<std::uint64_t>(index), units);
      expected += probabilities(index) * state.transpose() * state;
    }
    const ExactBoltzmannMachineSummary summary = exact_summary(model);
    EXPECT_LT((summary.statistics.second_moments - expected).cwiseAbs().maxCoeff(), kMomentTolerance);
    EXPECT_LT((summary.statistics.means - expected.diagonal()).cwiseAbs().maxCoeff(), kMomentTolerance);
    EXPECT_NEAR(summary.log_partition, static_cast<double>(testing::brute_force_log_partition(model)),
                kLogPartitionTolerance);
  }
}

TEST(MeanLogLikelihood, MatchesBruteForceProbabilities) {
  const BoltzmannMachine model = testing::random_boltzmann_machine(6, 1.0, 21);
  const BinaryMatrix data = random_binary_data(30, 6, 4);
  const Eigen::VectorXd probabilities = testing::brute_force_probabilities(model);
  double expected = 0.0;
  for (Eigen::Index row = 0; row < data.rows(); ++row) {
    std::uint64_t index = 0;
    for (Eigen::Index unit = 0; unit < 6; ++unit) index |= static_cast<std::uint64_t>(data(row, unit)) << unit;
    expected += std::log(probabilities(static_cast<Eigen::Index>(index))) / 30.0;
  }
  EXPECT_NEAR(mean_log_likelihood(model, data, exact_log_partition(model)), expected, kLogPartitionTolerance);
  EXPECT_THROW(mean_log_likelihood(model, BinaryMatrix::Zero(3, 5), 0.0), InputError);
  EXPECT_THROW(mean_log_likelihood(model, BinaryMatrix::Constant(3, 6, 2), 0.0), InputError);
}

TEST(ExactLogLikelihoodGradient, MatchesFiniteDifferences) {
  const Eigen::Index units = 6;
  const BoltzmannMachine model = testing::random_boltzmann_machine(units, 1.0, 31);
  const BinaryMatrix data = random_binary_data(40, units, 8);
  const BoltzmannMachineGradient gradient = exact_log_likelihood_gradient(model, empirical_statistics(data, "data"));
  const auto log_likelihood = [&](const BoltzmannMachine& shifted) {
    return mean_log_likelihood(shifted, data, exact_log_partition(shifted));
  };
  for (Eigen::Index i = 0; i < units; ++i) {
    BoltzmannMachine up = model, down = model;
    up.biases(i) += kFiniteDifferenceStep;
    down.biases(i) -= kFiniteDifferenceStep;
    EXPECT_NEAR(gradient.biases(i), (log_likelihood(up) - log_likelihood(down)) / (2 * kFiniteDifferenceStep),
                kFiniteDifferenceTolerance);
    EXPECT_EQ(gradient.couplings(i, i), 0.0);
    for (Eigen::Index j = 0; j < i; ++j) {
      up = model;
      down = model;
      up.couplings(i, j) = up.couplings(j, i) = model.couplings(i, j) + kFiniteDifferenceStep;
      down.couplings(i, j) = down.couplings(j, i) = model.couplings(i, j) - kFiniteDifferenceStep;
      const double expected = (log_likelihood(up) - log_likelihood(down)) / (2 * kFiniteDifferenceStep);
      EXPECT_NEAR(gradient.couplings(i, j), expected, kFiniteDifferenceTolerance);
      EXPECT_EQ(gradient.couplings(j, i), gradient.couplings(i, j));
    }
  }
}

}  // namespace
}  // namespace rbmix
