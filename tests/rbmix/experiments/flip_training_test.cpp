#include "rbmix/experiments/flip_training.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace rbmix::experiments {
namespace {

FlipTrainingConfig tiny_config(int threads) {
  FlipTrainingConfig config = flip_training_config("smoke", 5);
  config.trials = 2;
  config.updates = 100;
  config.evaluation_interval = 50;
  config.threads = threads;
  return config;
}

// The smoke scale runs every setting for G and T and reports one row per setting. 100 updates do not yet leave the
// saddle at W ≈ 0 (learning takes thousands on BAS 4×4), so the likelihoods stay near the uniform model's
// −16 ln 2; a slightly worse value is possible, a much worse one would be a bug.
TEST(FlipTraining, SmokeScaleProducesOneRowPerSettingWithSaneFigures) {
  const FlipTrainingConfig config = tiny_config(2);
  const FlipTrainingResult result = run_flip_training(config);
  ASSERT_EQ(result.rows.size(), config.settings.size());
  ASSERT_EQ(result.runs.size(), config.settings.size() * 2 * 2);
  EXPECT_EQ(result.evaluation_updates, (std::vector<std::int64_t>{0, 50, 100}));
  for (const auto& run : result.runs) {
    ASSERT_EQ(run.learning_curve.size(), 3u);
    EXPECT_GT(run.maximum_log_likelihood, -16.0 * std::log(2.0) - 0.01);
    EXPECT_LT(run.maximum_log_likelihood, 0.0);
    EXPECT_GE(run.maximum_log_likelihood, run.learning_curve.front());
  }
  for (const auto& row : result.rows) {
    EXPECT_GE(row.p_value, 0.0);
    EXPECT_LE(row.p_value, 1.0);
  }
}

// G and T start from the same weights in the same trial (paired design): the first evaluation agrees.
TEST(FlipTraining, OperatorsArePairedByTrial) {
  const FlipTrainingResult result = run_flip_training(tiny_config(1));
  for (const auto& gibbs : result.runs) {
    for (const auto& flip : result.runs) {
      if (!gibbs.flip && flip.flip && gibbs.setting == flip.setting && gibbs.trial == flip.trial) {
        EXPECT_EQ(gibbs.learning_curve.front(), flip.learning_curve.front());
      }
    }
  }
}

TEST(FlipTraining, ResultsDoNotDependOnTheThreadCount) {
  const FlipTrainingResult one = run_flip_training(tiny_config(1));
  const FlipTrainingResult two = run_flip_training(tiny_config(2));
  ASSERT_EQ(one.runs.size(), two.runs.size());
  for (std::size_t k = 0; k < one.runs.size(); ++k) EXPECT_EQ(one.runs[k].learning_curve, two.runs[k].learning_curve);
}

TEST(FlipTraining, MedianOfOddAndEvenCounts) {
  EXPECT_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
}

}  // namespace
}  // namespace rbmix::experiments
