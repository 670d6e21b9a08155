#include "rbmix/training/boltzmann_machine_trainer.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "rbmix/core/error.hpp"
#include "rbmix/model/boltzmann_machine_enumeration.hpp"
#include "rbmix/model/pseudo_likelihood.hpp"
#include "rbmix/random/random_stream.hpp"
#include "support/boltzmann_machine_models.hpp"
#include "support/brute_force.hpp"

namespace rbmix {
namespace {

constexpr Eigen::Index kUnits = 5;
constexpr Eigen::Index kTrainingRows = 2000;
// PCD's model statistics from 1000 chains carry noise of about 1/√1000 ≈ 0.03 per entry, which the last updates
// (learning rate decaying to 0) average down to a parameter error of ~0.01. The log-likelihood is flat (second
// order) at its maximum, so that costs ~½·15 parameters·0.01²·Var(x_i x_j) ≈ 2e-4 nats (2e-5 observed with this
// seed); 1e-3 nats bounds it while staying far below the gap between the independent-units start and the optimum,
// which the test also checks (0.08 nats here).
constexpr double kPcdLogLikelihoodGap = 1e-3;
// Only rounding separates the trainer's two-step result from the same steps taken by hand.
constexpr double kRoundingTolerance = 1e-12;

// Rows drawn exactly from a random 5-unit machine with strong couplings (inverse CDF over all 32 states).
BinaryMatrix sample_exactly(const BoltzmannMachine& model, Eigen::Index rows, std::uint64_t seed) {
  const Eigen::VectorXd probabilities = testing::brute_force_probabilities(model);
  RandomStream stream(seed, 0, StreamDomain::data);
  BinaryMatrix data(rows, model.size());
  for (Eigen::Index row = 0; row < rows; ++row) {
    double remaining = stream.uniform();
    Eigen::Index index = 0;
    while (index + 1 < probabilities.size() && remaining >= probabilities(index)) remaining -= probabilities(index++);
    data.row(row) = testing::bits_of(static_cast<std::uint64_t>(index), model.size()).cast<std::uint8_t>();
  }
  return data;
}

double training_log_likelihood(const BoltzmannMachine& model, const BinaryMatrix& data) {
  return mean_log_likelihood(model, data, exact_log_partition(model));
}

// The trainer's start: couplings 0, biases the log-odds of the training means (none is near 0 or 1 here, so the
// clamp does not act).
BoltzmannMachine independent_units_start(const BinaryMatrix& training) {
  BoltzmannMachine start = BoltzmannMachine::zeros(training.cols());
  const VectorD means = training.cast<double>().colwise().mean().transpose();
  start.biases = (means.array() / (1.0 - means.array())).log();
  return start;
}

class BoltzmannMachineTrainerTest : public ::testing::Test {
 protected:
  BoltzmannMachine target = testing::random_boltzmann_machine(kUnits, 2.0, 8);
  BinaryMatrix training = sample_exactly(target, kTrainingRows, 1);
  BinaryMatrix validation = sample_exactly(target, 500, 2);
};

TEST_F(BoltzmannMachineTrainerTest, PersistentChainsApproachTheExactGradientSolution) {
  BoltzmannMachineTrainingOptions exact;
  exact.algorithm = BoltzmannMachineAlgorithm::exact_gradient;
  exact.learning_rate = 1.0;
  exact.updates = 1500;
  exact.evaluation_interval = exact.updates;
  const BoltzmannMachine maximum = train_boltzmann_machine(training, training, exact).final_model;
  ASSERT_GT(
      training_log_likelihood(maximum, training) - training_log_likelihood(independent_units_start(training), training),
      50 * kPcdLogLikelihoodGap);

  BoltzmannMachineTrainingOptions pcd = exact;
  pcd.algorithm = BoltzmannMachineAlgorithm::persistent_chains;
  pcd.learning_rate = 1.0;
  pcd.chains = 1000;
  for (const char* rule : {"gibbs", "flip"}) {
    pcd.rule = parse_unit_rule(rule);
    const BoltzmannMachine learned = train_boltzmann_machine(training, training, pcd).final_model;
    EXPECT_LT(training_log_likelihood(maximum, training) - training_log_likelihood(learned, training),
              kPcdLogLikelihoodGap)
        << rule;
  }
}

TEST_F(BoltzmannMachineTrainerTest, StepsDecayLinearlyToZero) {
  BoltzmannMachineTrainingOptions options;
  options.algorithm = BoltzmannMachineAlgorithm::exact_gradient;
  options.learning_rate = 0.3;
  options.updates = 2;
  const BoltzmannMachineTrainingSummary summary = train_boltzmann_machine(training, validation, options);
  // From the start, η·g(θ₀) and then (η/2)·g(θ₁).
  BoltzmannMachine expected = independent_units_start(training);
  const BoltzmannMachineStatistics data = empirical_statistics(training, "training");
  apply_step(expected, exact_log_likelihood_gradient(expected, data), 0.3);
  apply_step(expected, exact_log_likelihood_gradient(expected, data), 0.15);
  EXPECT_LT((summary.final_model.couplings - expected.couplings).cwiseAbs().maxCoeff(), kRoundingTolerance);
  EXPECT_LT((summary.final_model.biases - expected.biases).cwiseAbs().maxCoeff(), kRoundingTolerance);
}

TEST_F(BoltzmannMachineTrainerTest, PseudoLikelihoodImprovesValidationAndKeepsTheBest) {
  BoltzmannMachineTrainingOptions options;
  options.algorithm = BoltzmannMachineAlgorithm::pseudo_likelihood;
  options.validation = BoltzmannMachineValidation::pseudo_log_likelihood;
  options.learning_rate = 0.5;
  options.updates = 400;  // 10 epochs of 40 mini-batches of 50
  options.evaluation_interval = 30;
  const BoltzmannMachineTrainingSummary summary = train_boltzmann_machine(training, validation, options);
  // Evaluations at 0, every 30 updates and at the end.
  ASSERT_EQ(summary.history.size(), 1U + 13U + 1U);
  EXPECT_EQ(summary.history.back().update, 400);
  double best = summary.history.front().validation_score;
  for (std::size_t k = 1; k < summary.history.size(); ++k) {
    EXPECT_GE(summary.history[k].training_seconds, summary.history[k - 1].training_seconds);
    best = std::max(best, summary.history[k].validation_score);
  }
  EXPECT_EQ(summary.best_validation_score, best);
  EXPECT_GT(summary.best_validation_score, summary.history.front().validation_score);
  EXPECT_DOUBLE_EQ(mean_log_pseudo_likelihood(summary.best_model, validation.cast<double>()), best);
  // The likelihood improved too: PL's optimum is near the likelihood's on data drawn from the model class.
  EXPECT_GT(training_log_likelihood(summary.best_model, validation),
            training_log_likelihood(independent_units_start(training), validation));
}

TEST_F(BoltzmannMachineTrainerTest, SameSeedSameModel) {
  BoltzmannMachineTrainingOptions options;
  options.algorithm = BoltzmannMachineAlgorithm::persistent_chains;
  options.updates = 50;
  options.chains = 20;
  const BoltzmannMachineTrainingSummary first = train_boltzmann_machine(training, validation, options);
  const BoltzmannMachineTrainingSummary second = train_boltzmann_machine(training, validation, options);
  EXPECT_EQ(first.final_model.couplings, second.final_model.couplings);
  options.seed = 2;
  EXPECT_NE(train_boltzmann_machine(training, validation, options).final_model.couplings, first.final_model.couplings);
}

TEST_F(BoltzmannMachineTrainerTest, RefusesBadOptionsAndData) {
  BoltzmannMachineTrainingOptions options;
  options.learning_rate = 0.0;
  EXPECT_THROW(train_boltzmann_machine(training, validation, options), InputError);
  options = {};
  options.batch_size = 0;
  EXPECT_THROW(train_boltzmann_machine(training, validation, options), InputError);
  options = {};
  EXPECT_THROW(train_boltzmann_machine(training, BinaryMatrix::Zero(3, kUnits + 1), options), InputError);
  EXPECT_THROW(train_boltzmann_machine(BinaryMatrix::Zero(0, kUnits), validation, options), InputError);
  const BinaryMatrix wide = BinaryMatrix::Zero(4, kMaxEnumeratedBoltzmannMachineUnits + 1);
  EXPECT_THROW(train_boltzmann_machine(wide, wide, options), InputError);
  options.validation = BoltzmannMachineValidation::pseudo_log_likelihood;
  options.updates = 1;
  EXPECT_NO_THROW(train_boltzmann_machine(wide, wide, options));
}

TEST(BoltzmannMachineAlgorithm, ParsesAndPrintsTheCommandLineNames) {
  for (const char* name : {"exact", "pcd", "pl"}) EXPECT_EQ(to_string(parse_boltzmann_machine_algorithm(name)), name);
  EXPECT_THROW(parse_boltzmann_machine_algorithm("cd"), InputError);
}

}  // namespace
}  // namespace rbmix
