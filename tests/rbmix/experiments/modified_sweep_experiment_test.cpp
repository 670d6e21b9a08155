#include "rbmix/experiments/modified_sweep_experiment.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <variant>

#include "rbmix/core/error.hpp"
#include "rbmix/experiments/slem_sweep_experiment.hpp"

namespace rbmix::experiments {
namespace {

// Smoke options without the trained RBMs, over a small grid.
ModifiedSweepOptions small_random_options() {
  ModifiedSweepOptions options = modified_sweep_options(Scale::smoke, 3, {});
  options.family.sizes = {2};
  options.family.weight_bounds = {1, 4};
  options.family.rbms_per_setting = 2;
  options.trained.clear();
  return options;
}

// The operators are G, T, T^α, then the γ family; γ = 0 is G bit for bit, so its exact SLEM and τ are G's, and the
// RBMs are the slem-sweep RBMs: G's and T's SLEMs are slem-sweep's.
TEST(ModifiedSweep, TheFamilyStartsAtGibbsOnTheSlemSweepRbms) {
  const ModifiedSweepOptions options = small_random_options();
  ASSERT_EQ(options.shifts.front(), 0.0);
  const ModifiedSweepResult result = run_modified_sweep(options).value();
  ASSERT_EQ(result.rbms.size(), 4u);
  EXPECT_TRUE(result.trained.empty());
  SlemSweepOptions slem_options = slem_sweep_options(Scale::smoke, 3);
  slem_options.family.sizes = {2};
  slem_options.family.weight_bounds = {1, 4};
  slem_options.family.rbms_per_setting = 2;
  const SlemSweepResult slem = run_slem_sweep(slem_options).value();
  const std::size_t operators = modified_sweep_random_operators(options).size();
  ASSERT_EQ(operators, 3 + options.shifts.size());
  for (std::size_t k = 0; k < result.rbms.size(); ++k) {
    const ModifiedSweepRbm& rbm = result.rbms[k];
    ASSERT_EQ(rbm.slem.size(), operators);
    ASSERT_EQ(rbm.tau.size(), operators);
    EXPECT_EQ(rbm.slem[3], rbm.slem[0]);
    EXPECT_EQ(rbm.tau[3], rbm.tau[0]);
    EXPECT_EQ(rbm.slem[0], slem.rbms[k].slem_gibbs);
    EXPECT_EQ(rbm.slem[1], slem.rbms[k].slem_flip);
    for (const double value : rbm.slem) {
      EXPECT_GE(value, 0.0);
      EXPECT_LE(value, 1.0 + 1e-12);
    }
  }
  EXPECT_EQ(modified_sweep_summary_table(options, result).rows(), 2u);
}

// The share of RBMs where some γ beats G and T counts exactly those RBMs.
TEST(ModifiedSweep, TheShareCountsTheRbmsWhereSomeGammaIsBelowGAndT) {
  const ModifiedSweepOptions options = small_random_options();
  const ModifiedSweepResult result = run_modified_sweep(options).value();
  const Table table = modified_sweep_summary_table(options, result);
  for (std::size_t row = 0; row < table.rows(); ++row) {
    const auto bound = std::get<long long>(table.at(row, 1));
    int beats = 0;
    for (const ModifiedSweepRbm& rbm : result.rbms) {
      if (rbm.weight_bound != bound) continue;
      bool below = false;
      for (std::size_t k = 3; k < rbm.slem.size(); ++k)
        below = below || rbm.slem[k] < std::min(rbm.slem[0], rbm.slem[1]) - 1e-9;
      beats += below;
    }
    EXPECT_EQ(std::get<double>(table.at(row, 8)), beats / 2.0) << "c = " << bound;
  }
}

// Smoke scale runs the trained BAS setting with three estimates per operator, and its results survive the job
// grid's journal.
TEST(ModifiedSweep, SmokeScaleSamplesTheTrainedRbmAndRoundTripsThroughTheGrid) {
  ModifiedSweepOptions options = modified_sweep_options(Scale::smoke, 2, {});
  options.family.sizes = {2};
  options.family.weight_bounds = {2};
  options.family.rbms_per_setting = 1;
  EXPECT_FALSE(options.mnist_skipped.empty());
  const ModifiedSweepResult result = run_modified_sweep(options).value();
  ASSERT_EQ(result.trained.size(), 1u);
  const ModifiedSweepTrainedTrial& trial = result.trained.front();
  ASSERT_EQ(trial.estimates.size(), modified_sweep_trained_operators(options).size());
  for (const auto& estimates : trial.estimates) EXPECT_EQ(estimates.size(), 7u);  // every estimator
  ModifiedSweepTrainedTrial restored;
  from_grid_json(to_grid_json(trial), restored);
  EXPECT_EQ(to_grid_json(restored), to_grid_json(trial));
  ModifiedSweepRbm rbm;
  from_grid_json(to_grid_json(result.rbms.front()), rbm);
  EXPECT_EQ(to_grid_json(rbm), to_grid_json(result.rbms.front()));
  const Table trained = modified_sweep_trained_table(options, result);
  EXPECT_EQ(trained.rows(), 7u * trial.estimates.size());
  // The headline rows, the recommended estimator under every operator, come first.
  const auto& columns = trained.columns();
  const auto estimator =
      static_cast<std::size_t>(std::find(columns.begin(), columns.end(), "estimator") - columns.begin());
  for (std::size_t row = 0; row < trial.estimates.size(); ++row)
    EXPECT_EQ(std::get<std::string>(trained.at(row, estimator)), analysis::recommended_integrated_time_method);
}

TEST(ModifiedSweep, OptionsNameWhatIsOutOfRange) {
  ModifiedSweepOptions options = small_random_options();
  options.shifts = {0.5, 1.5};
  EXPECT_THROW(options.validate(), InputError);
  options = small_random_options();
  options.family.sizes = {14};
  EXPECT_THROW(options.validate(), InputError);
  options = small_random_options();
  options.mixture_weight = -0.1;
  EXPECT_THROW(run_modified_sweep(options), InputError);
  const ModifiedSweepOptions paper = modified_sweep_options(Scale::paper, 1, {});
  EXPECT_EQ(paper.family.sizes, (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(paper.family.rbms_per_setting, 100);
  EXPECT_EQ(paper.shifts.size(), 11u);
}

}  // namespace
}  // namespace rbmix::experiments
