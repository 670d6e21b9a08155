#include "rbmix/experiments/estimator_calibration_experiment.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {
namespace {

// A population small enough for a second: one random 3+3 RBM, G and T, one configuration, two replicates.
EstimatorCalibrationOptions tiny_options() {
  EstimatorCalibrationOptions options = estimator_calibration_options(Scale::smoke, 7);
  options.weight_bounds = {2};
  options.trained_rbms = 0;
  options.configurations = {{4, 2000}};
  return options;
}

TEST(EstimatorCalibration, EstimatesEveryRunAgainstItsExactTime) {
  const EstimatorCalibrationOptions options = tiny_options();
  const EstimatorCalibrationResult result = run_estimator_calibration(options).value();
  ASSERT_EQ(result.runs.size(), 2u * 2u);  // 2 operators × 2 replicates
  for (const CalibrationRun& run : result.runs) {
    EXPECT_GT(run.exact_time, 0.0);
    EXPECT_EQ(run.diagnostics.estimates.size(), 7u);
  }
  // G and T of the same RBM: one exact τ each, shared by its replicates.
  EXPECT_EQ(result.runs[0].exact_time, result.runs[1].exact_time);
  EXPECT_NE(result.runs[0].exact_time, result.runs[2].exact_time);

  const std::vector<EstimatorScore> scores = score_estimators(result, options.rule);
  ASSERT_EQ(scores.size(), 8u);  // seven estimators and "all"
  EXPECT_EQ(scores.back().method, "all");
  int pooled_estimates = 0;
  for (std::size_t k = 0; k + 1 < scores.size(); ++k) pooled_estimates += scores[k].estimates;
  EXPECT_EQ(scores.back().estimates, pooled_estimates);
  for (const EstimatorScore& score : scores) {
    EXPECT_GE(score.coverage, 0.0);
    EXPECT_LE(score.coverage, 1.0);
    EXPECT_LE(score.far_off_flagged, score.far_off);
    EXPECT_LE(score.close_flagged, score.close);
  }
}

// The coverage per run shape splits the overall one: per estimator, the estimates of the shapes add up to all of
// them and the shapes' coverages, weighted by their estimates, to the overall coverage; the trusted intervals'
// coverage counts only trusted estimates.
TEST(EstimatorCalibration, CoveragePerRunShapeSplitsTheOverallCoverage) {
  EstimatorCalibrationOptions options = tiny_options();
  options.configurations = {{2, 1000}, {4, 2000}};
  const EstimatorCalibrationResult result = run_estimator_calibration(options).value();
  const std::vector<EstimatorScore> overall = score_estimators(result, options.rule);
  std::vector<int> estimates(overall.size(), 0);
  std::vector<double> covered(overall.size(), 0.0);
  for (const ChainConfiguration& configuration : options.configurations) {
    const std::vector<EstimatorScore> scores = score_estimators(result, options.rule, 1, configuration);
    ASSERT_EQ(scores.size(), overall.size());
    for (std::size_t k = 0; k < scores.size(); ++k) {
      EXPECT_EQ(scores[k].method, overall[k].method);
      estimates[k] += scores[k].estimates;
      if (scores[k].estimates > 0) covered[k] += scores[k].coverage * scores[k].estimates;
      EXPECT_LE(scores[k].trusted_covered, scores[k].trusted);
    }
  }
  for (std::size_t k = 0; k < overall.size(); ++k) {
    EXPECT_EQ(estimates[k], overall[k].estimates) << overall[k].method;
    if (overall[k].estimates > 0) {
      EXPECT_NEAR(covered[k] / overall[k].estimates, overall[k].coverage, 1e-12) << overall[k].method;
    }
  }
  const Table table = coverage_by_configuration_table(options, result);
  EXPECT_EQ(table.rows(), 2 * overall.size());
}

TEST(EstimatorCalibration, ResultsDoNotDependOnTheThreadCount) {
  const EstimatorCalibrationResult one = run_estimator_calibration(tiny_options(), JobRunner(1)).value();
  const EstimatorCalibrationResult two = run_estimator_calibration(tiny_options(), JobRunner(2)).value();
  ASSERT_EQ(one.runs.size(), two.runs.size());
  for (std::size_t r = 0; r < one.runs.size(); ++r)
    for (std::size_t k = 0; k < one.runs[r].diagnostics.estimates.size(); ++k)
      EXPECT_EQ(one.runs[r].diagnostics.estimates[k].time, two.runs[r].diagnostics.estimates[k].time);
}

TEST(EstimatorCalibration, ChoosesTheRuleThatMeetsBothGoalsWithTheFewestNeedlessFlags) {
  const auto candidate = [](int far_flagged, int close_flagged) {
    RuleCandidate out;
    out.pooled.far_off = 100;
    out.pooled.far_off_flagged = far_flagged;
    out.pooled.close = 100;
    out.pooled.close_flagged = close_flagged;
    return out;
  };
  // 0 misses the far-off goal; 1 and 3 meet both, 3 with fewer needless flags; 2 flags too much.
  EXPECT_EQ(chosen_rule({candidate(90, 1), candidate(96, 8), candidate(100, 50), candidate(95, 5)}), 3u);
  // None meets both: the one that falls least short (0.05 + 0.10, 0 + 0.50, 0.03 + 0.02).
  EXPECT_EQ(chosen_rule({candidate(90, 20), candidate(99, 60), candidate(92, 12)}), 2u);
}

TEST(EstimatorCalibration, OptionsNameWhatIsOutOfRange) {
  EstimatorCalibrationOptions options = tiny_options();
  options.replicates = 0;
  EXPECT_THROW(options.validate(), InputError);
  options = tiny_options();
  options.operators = {"no-such-rule"};
  EXPECT_THROW(options.validate(), InputError);
  options = tiny_options();
  options.sizes = {6};  // 12 units: beyond the dense exact analysis
  EXPECT_THROW(options.validate(), InputError);
  options = tiny_options();
  options.configurations = {{0, 1000}};
  EXPECT_THROW(options.validate(), InputError);
}

}  // namespace
}  // namespace rbmix::experiments
