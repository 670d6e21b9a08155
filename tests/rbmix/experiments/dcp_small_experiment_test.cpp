#include "rbmix/experiments/dcp_small_experiment.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {
namespace {

// Smoke scale: one mean curve per (data set, algorithm, η), each sampled at every evaluation epoch, and the
// invariants of the summary: no mean curve beats the best possible value (−entropy of the data), the maximum is the
// largest point of its curve, the final value its last, and the 90 % epoch is an evaluation epoch at which the curve
// has reached start + 0.9 (max − start). Whether Shifting Bar stays stuck (002 §4.2.1) is what the experiment
// reports, not what this test asserts.
TEST(DcpSmall, SmokeScaleCurvesKeepTheSummaryInvariants) {
  DcpSmallOptions options = dcp_small_options(Scale::smoke, 3);
  const DcpSmallResult result = run_dcp_small(options, JobRunner(2)).value();
  ASSERT_EQ(result.curves.size(), 2u * 5u * 2u);
  EXPECT_EQ(result.evaluation_epochs.front(), 0);
  EXPECT_EQ(result.evaluation_epochs.back(), options.epochs);
  EXPECT_NEAR(options.data_sets[0].best_log_likelihood, -2.599, 5e-4);
  EXPECT_NEAR(options.data_sets[1].best_log_likelihood, -std::log(9.0), 1e-12);
  for (const auto& curve : result.curves) {
    const auto& values = curve.mean_log_likelihood;
    ASSERT_EQ(values.size(), result.evaluation_epochs.size());
    for (double value : values) EXPECT_TRUE(std::isfinite(value));
    EXPECT_LE(curve.maximum, options.data_sets[curve.data_set].best_log_likelihood + 1e-9);
    EXPECT_EQ(curve.maximum, *std::max_element(values.begin(), values.end()));
    EXPECT_EQ(curve.final, values.back());
    EXPECT_GE(curve.diverged_trials, 0);
    EXPECT_LE(curve.diverged_trials, options.trials);
    const auto at =
        std::find(result.evaluation_epochs.begin(), result.evaluation_epochs.end(), curve.epoch_to_90_percent);
    ASSERT_NE(at, result.evaluation_epochs.end());
    const double target = values.front() + 0.9 * (curve.maximum - values.front());
    EXPECT_GE(values[static_cast<std::size_t>(at - result.evaluation_epochs.begin())], target);
  }
}

// Every trial is seeded from (seed, trial) alone: one thread or two give the same curves.
TEST(DcpSmall, ResultsDoNotDependOnTheThreadCount) {
  DcpSmallOptions options = dcp_small_options(Scale::smoke, 4);
  options.trials = 2;
  options.epochs = 40;
  const DcpSmallResult one = run_dcp_small(options, JobRunner(1)).value();
  const DcpSmallResult two = run_dcp_small(options, JobRunner(2)).value();
  ASSERT_EQ(one.curves.size(), two.curves.size());
  for (std::size_t k = 0; k < one.curves.size(); ++k)
    EXPECT_EQ(one.curves[k].mean_log_likelihood, two.curves[k].mean_log_likelihood);
}

TEST(DcpSmall, OptionsRefuseEmptyOrNonPositiveCounts) {
  DcpSmallOptions options = dcp_small_options(Scale::smoke, 1);
  options.trials = 0;
  EXPECT_THROW(options.validate(), InputError);
  options = dcp_small_options(Scale::smoke, 1);
  options.learning_rates = {0.3, -0.1};
  EXPECT_THROW(run_dcp_small(options), InputError);
}

TEST(DcpSmall, EpochToNinetyPercentIsTheFirstCrossing) {
  const std::vector<std::int64_t> epochs{0, 10, 20, 30, 40};
  // start −5, maximum −3: the target is −5 + 0.9·2 = −3.2, first reached at epoch 30.
  EXPECT_EQ(epoch_to_fraction_of_maximum({-5.0, -4.0, -3.3, -3.2, -3.0}, epochs, 0.9), 30);
  EXPECT_EQ(epoch_to_fraction_of_maximum({-5.0, -3.0, -4.0, -3.5, -3.1}, epochs, 0.9), 10);
}

}  // namespace
}  // namespace rbmix::experiments
