#include "rbmix/training/saved_model_bridges.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "rbmix/core/error.hpp"
#include "rbmix/model/exact.hpp"
#include "support/input_error_message.hpp"
#include "test_models.hpp"

namespace rbmix {
namespace {

// A normal deviate beyond 5.5 standard errors has probability 4e-8: with 6 models per test, a false failure about
// once in 4 million runs (the seed is fixed, so a run that passes passes always).
constexpr double kStandardErrors = 5.5;

// A tiny trajectory (6 visible, 3 hidden units) whose couplings grow along training, as a run's do, with the
// visible means of `rows`.
Trajectory tiny_trajectory(const MatrixD& rows) {
  Trajectory trajectory;
  trajectory.n_visible = 6;
  trajectory.n_hidden = 3;
  trajectory.configuration = "{}";
  trajectory.data_visible_means = rows.colwise().mean().transpose();
  for (int model = 0; model < 6; ++model)
    trajectory.models.push_back({10 * model, testing::random_rbm(6, 3, 0.4 + 0.3 * model, 7 + model)});
  return trajectory;
}

// Every visible state of `units` units, state k's unit j = bit j of k.
MatrixD all_visible_states(Eigen::Index units) {
  MatrixD states(Eigen::Index{1} << units, units);
  for (Eigen::Index k = 0; k < states.rows(); ++k)
    for (Eigen::Index j = 0; j < units; ++j) states(k, j) = static_cast<double>((k >> j) & 1);
  return states;
}

SavedModelBridgeOptions small_options() {
  SavedModelBridgeOptions options;
  options.samples = 2000;
  options.sweeps = 30;
  options.seed = 3;
  return options;
}

TEST(SavedModelBridges, ChainedLogPartitionIsWithinItsBandOfTheExactValueAtEveryModel) {
  const MatrixD rows = testing::random_binary_rows(40, 6, 5);
  const Trajectory trajectory = tiny_trajectory(rows);
  const auto rungs = saved_model_log_partitions(trajectory, rows, small_options());
  ASSERT_EQ(rungs.size(), trajectory.models.size());
  double previous_exact = exact_log_partition(trajectory.independent_model());
  for (std::size_t k = 0; k < rungs.size(); ++k) {
    const Rbm& model = trajectory.models[k].parameters;
    const double exact = exact_log_partition(model);
    SCOPED_TRACE("model " + std::to_string(k));
    EXPECT_EQ(rungs[k].update, trajectory.models[k].update);
    EXPECT_GT(rungs[k].log_partition.standard_error, 0.0);
    EXPECT_NEAR(rungs[k].log_partition.value, exact, kStandardErrors * rungs[k].log_partition.standard_error);
    EXPECT_NEAR(rungs[k].bennett.value, exact - previous_exact, kStandardErrors * rungs[k].bennett.standard_error);
    EXPECT_NEAR(rungs[k].free_energy_perturbation.value, exact - previous_exact,
                kStandardErrors * rungs[k].free_energy_perturbation.standard_error);
    EXPECT_NEAR(rungs[k].train_log_likelihood,
                exact_average_log_likelihood(model, rows, exact) + exact - rungs[k].log_partition.value, 1e-9);
    EXPECT_FALSE(rungs[k].exceeds_distinct_rows());
    previous_exact = exact;
  }
}

TEST(SavedModelBridges, TheSameSeedGivesTheSameNumbersAndAnotherSeedOthers) {
  const MatrixD rows = testing::random_binary_rows(40, 6, 5);
  const Trajectory trajectory = tiny_trajectory(rows);
  SavedModelBridgeOptions options = small_options();
  options.samples = 50;
  const auto first = saved_model_log_partitions(trajectory, rows, options);
  const auto again = saved_model_log_partitions(trajectory, rows, options);
  options.seed = 4;
  const auto other = saved_model_log_partitions(trajectory, rows, options);
  EXPECT_EQ(first.back().log_partition.value, again.back().log_partition.value);
  EXPECT_NE(first.back().log_partition.value, other.back().log_partition.value);
}

// With every visible state as a training row, the distinct-rows bound is the exact log Z, so an estimate that falls
// below the exact value (as about half of them do) gives the rows a total probability above 1 and must be flagged.
TEST(SavedModelBridges, FlagsEveryEstimateBelowTheDistinctRowsBound) {
  const MatrixD rows = all_visible_states(6);
  const Trajectory trajectory = tiny_trajectory(rows);
  SavedModelBridgeOptions options = small_options();
  options.samples = 100;
  const auto rungs = saved_model_log_partitions(trajectory, rows, options);
  int flagged = 0;
  for (std::size_t k = 0; k < rungs.size(); ++k) {
    const double exact = exact_log_partition(trajectory.models[k].parameters);
    EXPECT_NEAR(rungs[k].distinct_rows_bound, exact, 1e-9);
    EXPECT_EQ(rungs[k].exceeds_distinct_rows(), rungs[k].log_partition.value < exact) << "model " << k;
    flagged += rungs[k].exceeds_distinct_rows() ? 1 : 0;
  }
  // This seed puts estimates on both sides of the exact values, so both verdicts are exercised.
  EXPECT_GT(flagged, 0);
  EXPECT_LT(flagged, static_cast<int>(rungs.size()));
}

TEST(SavedModelBridges, RefusesBadOptionsAndRowsNamingThem) {
  const MatrixD rows = testing::random_binary_rows(40, 6, 5);
  const Trajectory trajectory = tiny_trajectory(rows);
  SavedModelBridgeOptions options = small_options();
  options.samples = 1;
  EXPECT_NE(testing::input_error_message([&] { saved_model_log_partitions(trajectory, rows, options); })
                .find("--samples: at least 2"),
            std::string::npos);
  options = small_options();
  options.sweeps = 0;
  EXPECT_NE(testing::input_error_message([&] { saved_model_log_partitions(trajectory, rows, options); })
                .find("--sweeps: at least 1"),
            std::string::npos);
  EXPECT_NE(testing::input_error_message([&] {
              saved_model_log_partitions(trajectory, testing::random_binary_rows(40, 5, 1), small_options());
            }).find("rows of 5"),
            std::string::npos);
  MatrixD grey = rows;
  grey(0, 0) = 0.5;
  EXPECT_NE(testing::input_error_message([&] { saved_model_log_partitions(trajectory, grey, small_options()); })
                .find("values 0 or 1"),
            std::string::npos);
  Trajectory empty = trajectory;
  empty.models.clear();
  EXPECT_NE(testing::input_error_message([&] { saved_model_log_partitions(empty, rows, small_options()); })
                .find("holds no model"),
            std::string::npos);
}

}  // namespace
}  // namespace rbmix

namespace rbmix {
namespace {

SavedModelAnnealingOptions small_annealing_options() {
  SavedModelAnnealingOptions options;
  options.particles.particles = 400;
  options.particles.groups = 10;
  options.particles.seed = 3;
  options.step_size = 0.05;
  return options;
}

// Sequential Monte Carlo along the saved models: the exact log Z of every model lies within the band (the groups'
// spread: 3 standard errors, or the lognormal band where that is wider), each link after the first takes sized steps,
// the training log-likelihood is the rows' −F minus the estimate, and the distinct-rows verdict compares the two.
TEST(SavedModelAnnealing, ExactLogPartitionLiesWithinTheBandAtEveryModel) {
  const MatrixD rows = testing::random_binary_rows(40, 6, 5);
  const Trajectory trajectory = tiny_trajectory(rows);
  const auto models = anneal_along_saved_models(trajectory, rows, small_annealing_options());
  ASSERT_EQ(models.size(), trajectory.models.size());
  for (std::size_t k = 0; k < models.size(); ++k) {
    const Rbm& model = trajectory.models[k].parameters;
    const double exact = exact_log_partition(model);
    SCOPED_TRACE("model " + std::to_string(k));
    EXPECT_EQ(models[k].update, trajectory.models[k].update);
    EXPECT_LE(models[k].log_partition.lower, exact);
    EXPECT_GE(models[k].log_partition.upper, exact);
    EXPECT_NEAR(models[k].log_partition.log_partition, exact, 0.1);
    EXPECT_GE(models[k].steps, 1);
    EXPECT_NEAR(models[k].train_log_likelihood,
                -model.free_energy(rows).mean() - models[k].log_partition.log_partition, 1e-9);
    EXPECT_EQ(models[k].exceeds_distinct_rows(),
              models[k].log_partition.log_partition < distinct_rows_log_partition_bound(model, rows));
  }
  // The couplings grow by 0.3 a model: steps of at most 0.05 nats of spread need several per link.
  EXPECT_GT(models.back().steps, 3);
}

// The steps follow the step size: halving it about doubles them, and the same seed gives the same numbers.
// Each link takes max(1, ceil(spread / d)) steps, the spread the population standard deviation of the change of the
// rows' free energies between its two models (docs/algorithms/log-partition-along-training.md §11.9), recomputed here
// from the models; the first model, which has couplings, is reached through the 100-step bridge.
std::int64_t expected_link_steps(const Rbm& from, const Rbm& to, const MatrixD& rows, double step_size) {
  const Eigen::ArrayXd change = (to.free_energy(rows) - from.free_energy(rows)).array();
  const double spread = std::sqrt((change - change.mean()).square().mean());
  return static_cast<std::int64_t>(std::max(1.0, std::ceil(spread / step_size)));
}

TEST(SavedModelAnnealing, StepsFollowTheStepSizeAndTheSeedFixesTheNumbers) {
  const MatrixD rows = testing::random_binary_rows(40, 6, 5);  // fewer than the 250 reference rows: all of them
  const Trajectory trajectory = tiny_trajectory(rows);
  SavedModelAnnealingOptions options = small_annealing_options();
  options.particles.particles = 20;
  const auto coarse = anneal_along_saved_models(trajectory, rows, options);
  const auto again = anneal_along_saved_models(trajectory, rows, options);
  EXPECT_EQ(coarse.back().log_partition.log_partition, again.back().log_partition.log_partition);
  for (const double step_size : {options.step_size, options.step_size / 2}) {
    options.step_size = step_size;
    const auto annealed = anneal_along_saved_models(trajectory, rows, options);
    ASSERT_EQ(annealed.size(), trajectory.models.size());
    EXPECT_EQ(annealed.front().steps, initial_bridge_steps);
    std::int64_t links_of_several_steps = 0;
    for (std::size_t k = 1; k < annealed.size(); ++k) {
      const std::int64_t expected =
          expected_link_steps(trajectory.models[k - 1].parameters, trajectory.models[k].parameters, rows, step_size);
      EXPECT_EQ(annealed[k].steps, expected) << "link " << k << ", step size " << step_size;
      links_of_several_steps += expected > 1 ? 1 : 0;
    }
    EXPECT_GE(links_of_several_steps, 3) << "the step size must make the links' step counts differ from 1";
  }
}

TEST(SavedModelAnnealing, RefusesBadOptionsNamingThem) {
  const MatrixD rows = testing::random_binary_rows(40, 6, 5);
  const Trajectory trajectory = tiny_trajectory(rows);
  SavedModelAnnealingOptions options = small_annealing_options();
  options.step_size = 0.0;
  EXPECT_NE(testing::input_error_message([&] { anneal_along_saved_models(trajectory, rows, options); })
                .find("--step-size"),
            std::string::npos);
  options = small_annealing_options();
  options.particles.particles = 15;  // not a multiple of the 10 groups
  EXPECT_THROW(anneal_along_saved_models(trajectory, rows, options), InputError);
  EXPECT_NE(testing::input_error_message([&] {
              anneal_along_saved_models(trajectory, testing::random_binary_rows(40, 5, 1), small_annealing_options());
            }).find("rows of 5"),
            std::string::npos);
}

}  // namespace
}  // namespace rbmix
