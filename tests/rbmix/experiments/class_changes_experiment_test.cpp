#include "rbmix/experiments/class_changes_experiment.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {
namespace {

// Smoke scale cut to 2 RBMs per p_mut of 50 updates, 300 sweeps for Table 3 and 40 chains capped at 200 sweeps for
// Table 4, so that the test runs in seconds.
ClassChangesOptions short_options() {
  ClassChangesOptions options = class_changes_options(Scale::smoke, 11);
  options.trials = 2;
  options.updates = 50;
  options.sequence_steps = 300;
  options.starts = 40;
  options.first_change_cap = 200;
  return options;
}

// Every chain of Table 4 reports a first change in [1, cap] (the cap exactly when censored, and the censored
// count is the number of those); Table 3's count of changes cannot exceed the number of sweeps.
TEST(ClassChanges, SmokeScaleCountsAreWithinTheirBounds) {
  const ClassChangesOptions options = short_options();
  const ClassChangesResult result = run_class_changes(options).value();
  ASSERT_EQ(result.trials.size(), 2u * 2u);
  for (const ClassChangesTrial& trial : result.trials) {
    for (const OperatorClassChanges& counts : trial.counts) {
      EXPECT_GE(counts.changes, 0);
      EXPECT_LE(counts.changes, options.sequence_steps);
      ASSERT_EQ(counts.first_changes.size(), static_cast<std::size_t>(options.starts));
      for (const long long first : counts.first_changes) {
        EXPECT_GE(first, 1);
        EXPECT_LE(first, options.first_change_cap);
      }
      const auto at_cap = std::count(counts.first_changes.begin(), counts.first_changes.end(),
                                     static_cast<long long>(options.first_change_cap));
      EXPECT_LE(counts.censored, at_cap);
    }
  }
  EXPECT_EQ(class_changes_table(options, result).rows(), 4u);
  EXPECT_EQ(first_class_change_table(options, result).rows(), 4u);
}

TEST(ClassChanges, ResultsDoNotDependOnTheThreadCount) {
  const ClassChangesResult one = run_class_changes(short_options(), JobRunner(1)).value();
  const ClassChangesResult two = run_class_changes(short_options(), JobRunner(2)).value();
  ASSERT_EQ(one.trials.size(), two.trials.size());
  for (std::size_t k = 0; k < one.trials.size(); ++k)
    for (std::size_t r = 0; r < 2; ++r) {
      EXPECT_EQ(one.trials[k].counts[r].changes, two.trials[k].counts[r].changes);
      EXPECT_EQ(one.trials[k].counts[r].first_changes, two.trials[k].counts[r].first_changes);
    }
}

TEST(ClassChanges, QuantilesInterpolateLinearly) {
  EXPECT_EQ(quantile({4, 1, 3, 2}, 0.5), 2.5);
  EXPECT_EQ(quantile({4, 1, 3, 2}, 0.25), 1.75);
  EXPECT_EQ(quantile({7}, 0.75), 7.0);
  EXPECT_THROW(quantile({}, 0.5), InputError);
}

TEST(ClassChanges, OptionsRefuseNonPositiveCounts) {
  ClassChangesOptions options = short_options();
  options.first_change_cap = 0;
  EXPECT_THROW(options.validate(), InputError);
  options = short_options();
  options.starts = 0;
  EXPECT_THROW(run_class_changes(options), InputError);
}

}  // namespace
}  // namespace rbmix::experiments
