#include "rbmix/experiments/estimator_calibration_experiment.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <optional>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {
namespace {

// A population small enough for a second: one random 3+3 RBM, G and T, one configuration, two replicates, no
// held-out models.
EstimatorCalibrationOptions tiny_options() {
  EstimatorCalibrationOptions options = estimator_calibration_options(Scale::smoke, 7);
  options.weight_bounds = {2};
  options.trained_rbms = 0;
  options.modes_rbms = 0;
  options.configurations = {{4, 2000}};
  options.held_out = false;
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

// The held-out models are the same families' other members: as many runs as the calibration set's, other RBMs (other
// exact τ), the calibration set's runs unchanged by their presence; the goal runs split into the two sets.
TEST(EstimatorCalibration, HeldOutModelsAreOtherMembersOfTheSameFamilies) {
  EstimatorCalibrationOptions options = tiny_options();
  options.configurations = {{16, 1000}};
  const EstimatorCalibrationResult alone = run_estimator_calibration(options).value();
  options.held_out = true;
  const EstimatorCalibrationResult both = run_estimator_calibration(options).value();
  ASSERT_EQ(both.runs.size(), 2 * alone.runs.size());
  const std::size_t half = alone.runs.size();
  for (std::size_t r = 0; r < half; ++r) {
    const CalibrationRun& calibration = both.runs[r];
    const CalibrationRun& held_out = both.runs[half + r];
    EXPECT_FALSE(calibration.held_out());
    EXPECT_TRUE(held_out.held_out());
    EXPECT_EQ(calibration.model, alone.runs[r].model);
    EXPECT_EQ(calibration.diagnostics.estimates[0].time, alone.runs[r].diagnostics.estimates[0].time);
    EXPECT_EQ(held_out.operator_name, calibration.operator_name);
    EXPECT_NE(held_out.exact_time, calibration.exact_time) << held_out.model;
  }
  int goal = 0, calibration_runs = 0, held_out_runs = 0;
  for (const CalibrationRun& run : both.runs) {
    goal += goal_runs(options).selects(run);
    calibration_runs += goal_runs(options, false).selects(run);
    held_out_runs += goal_runs(options, true).selects(run);
  }
  EXPECT_GT(calibration_runs, 0);
  EXPECT_GT(held_out_runs, 0);
  EXPECT_EQ(calibration_runs + held_out_runs, goal);
  // The table of the goals: one row per estimator and "all", for each set, with Wilson intervals around the shares.
  const Table table = trust_goals_table(options, both, options.rule);
  EXPECT_EQ(table.rows(), 2u * 8u);
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
    const std::vector<EstimatorScore> scores = score_estimators(result, options.rule, {1, configuration, {}, {}});
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
  // Per shape, over every run and over those within their horizon.
  const Table table = coverage_by_configuration_table(options, result);
  EXPECT_EQ(table.rows(), 2 * 2 * overall.size());
}

// Superchain shapes: the chains of a superchain share their start, the nested R̂ is recorded and is what the rule's
// R̂ check reads; every run carries one long-batch interval per candidate factor, each holding its estimate's
// batch-means interval at that batch size.
TEST(EstimatorCalibration, SuperchainRunsAreJudgedByNestedRhat) {
  EstimatorCalibrationOptions options = tiny_options();
  options.configurations = {{32, 200, 4}, {4, 2000}};
  const EstimatorCalibrationResult result = run_estimator_calibration(options).value();
  ASSERT_EQ(result.runs.size(), 2u * 2u * 2u);
  for (const CalibrationRun& run : result.runs) {
    ASSERT_EQ(run.long_batch_candidates.size(), long_batch_factor_candidates.size());
    if (run.configuration.superchains == 0) {
      EXPECT_TRUE(std::isnan(run.nested_potential_scale_reduction));
      EXPECT_FALSE(run.diagnostics.signals.front().nested);
      continue;
    }
    EXPECT_GE(run.nested_potential_scale_reduction, 0.99);
    for (const analysis::TrustSignals& signals : run.diagnostics.signals) {
      EXPECT_TRUE(signals.nested);
      EXPECT_EQ(signals.potential_scale_reduction, run.nested_potential_scale_reduction);
    }
  }
}

// The horizon: a run counts among the goal runs only when its chains are horizon × τ_exp long.
TEST(EstimatorCalibration, TheGoalRunsAreTheMultiChainRunsWithinTheirHorizon) {
  CalibrationRun run;
  run.configuration = {16, 20000, 0};
  run.slowest_time = 1000.0;
  EstimatorCalibrationOptions options = tiny_options();
  options.horizon_in_slowest_times = 10.0;
  EXPECT_TRUE(goal_runs(options).selects(run));
  run.slowest_time = 2500.0;
  EXPECT_FALSE(goal_runs(options).selects(run));
  EXPECT_TRUE((RunSelection{16, std::nullopt, std::nullopt, std::nullopt}.selects(run)));
  run.slowest_time = 1.0;
  run.configuration.chains = 4;
  EXPECT_FALSE(goal_runs(options).selects(run));
  EXPECT_TRUE((RunSelection{1, ChainConfiguration{4, 20000, 0}, std::nullopt, std::nullopt}.selects(run)));
  EXPECT_FALSE((RunSelection{1, ChainConfiguration{4, 20000, 2}, std::nullopt, std::nullopt}.selects(run)));
}

// The interval construction chosen: the narrowest under which every estimator covers ≥ 90 %; else the one whose
// worst estimator covers most.
TEST(EstimatorCalibration, ChoosesTheNarrowestIntervalUnderWhichEveryEstimatorCovers) {
  const auto scores = [](std::vector<std::array<double, 3>> constructions) {
    // per construction: the headline's coverage and width, the other estimator's coverage
    std::vector<IntervalCandidateScore> out;
    for (std::size_t k = 0; k < constructions.size(); ++k) {
      const std::string name = "construction " + std::to_string(k);
      out.push_back({name, analysis::recommended_integrated_time_method, 10, constructions[k][0], constructions[k][1]});
      out.push_back({name, "batch_means", 10, constructions[k][2], 0.0});
    }
    return out;
  };
  // The band (0) misses; 2 and 3 meet the goal for both estimators, 2 narrower; 1 is narrow but the other misses.
  EXPECT_EQ(chosen_interval(scores({{0.6, 0.01, 0.7}, {0.95, 0.05, 0.85}, {0.95, 0.10, 0.92}, {0.98, 0.12, 0.95}})),
            std::optional<std::size_t>(1));
  // None meets it: the one whose worst estimator covers most.
  EXPECT_EQ(chosen_interval(scores({{0.6, 0.01, 0.7}, {0.85, 0.05, 0.80}, {0.88, 0.1, 0.70}})),
            std::optional<std::size_t>(0));
  // The band alone, when it meets the goal narrowest.
  EXPECT_EQ(chosen_interval(scores({{0.95, 0.01, 0.95}, {0.99, 0.05, 0.99}})), std::nullopt);
}

TEST(EstimatorCalibration, ResultsDoNotDependOnTheThreadCount) {
  const EstimatorCalibrationResult one = run_estimator_calibration(tiny_options(), JobRunner(1)).value();
  const EstimatorCalibrationResult two = run_estimator_calibration(tiny_options(), JobRunner(2)).value();
  ASSERT_EQ(one.runs.size(), two.runs.size());
  for (std::size_t r = 0; r < one.runs.size(); ++r)
    for (std::size_t k = 0; k < one.runs[r].diagnostics.estimates.size(); ++k)
      EXPECT_EQ(one.runs[r].diagnostics.estimates[k].time, two.runs[r].diagnostics.estimates[k].time);
}

// A score of 100 far-off and 100 close estimates with the given numbers flagged.
EstimatorScore flagged_score(const std::string& method, int far_flagged, int close_flagged) {
  EstimatorScore score{method};
  score.far_off = 100;
  score.far_off_flagged = far_flagged;
  score.close = 100;
  score.close_flagged = close_flagged;
  return score;
}

// A candidate of two estimators and "all", their counts pooled.
RuleCandidate candidate(std::array<int, 2> first, std::array<int, 2> second) {
  RuleCandidate out;
  out.scores = {flagged_score("first", first[0], first[1]), flagged_score("second", second[0], second[1])};
  EstimatorScore pooled = flagged_score("all", first[0] + second[0], first[1] + second[1]);
  pooled.far_off = pooled.close = 200;
  out.scores.push_back(pooled);
  return out;
}

TEST(EstimatorCalibration, ChoosesTheRuleThatMeetsBothGoalsWithTheFewestNeedlessFlags) {
  // 0 misses the far-off goal; 1 and 3 meet both, 3 with fewer needless flags; 2 flags too much.
  EXPECT_EQ(chosen_rule({candidate({90, 1}, {90, 1}), candidate({96, 8}, {96, 8}), candidate({100, 50}, {100, 50}),
                         candidate({95, 5}, {95, 5})}),
            3u);
  // None meets both: the one that falls least short (0.05 + 0.10, 0 + 0.50, 0.03 + 0.02 per estimator).
  EXPECT_EQ(chosen_rule({candidate({90, 20}, {90, 20}), candidate({99, 60}, {99, 60}), candidate({92, 12}, {92, 12})}),
            2u);
}

// The goals hold per estimator: a rule that meets them pooled while one estimator misses loses to one that meets them
// for each, though it flags fewer close estimates pooled.
TEST(EstimatorCalibration, ChoosesTheRuleByEachEstimatorsGoalsNotThePooledOnes) {
  const RuleCandidate pooled_only = candidate({90, 0}, {100, 2});  // pooled 95 % and 1 %: the first misses
  const RuleCandidate each = candidate({95, 9}, {96, 9});
  EXPECT_GE(pooled_only.pooled().flagged_far_share(), goal_flagged_far_share);
  EXPECT_LT(pooled_only.pooled().flagged_close_share(), each.pooled().flagged_close_share());
  EXPECT_EQ(chosen_rule({pooled_only, each}), 1u);
  EXPECT_GT(goal_shortfall(pooled_only.scores[0]), 0.0);
  EXPECT_EQ(goal_shortfall(each.scores[0]), 0.0);
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
  options = tiny_options();
  options.configurations = {{30, 1000, 4}};  // 4 superchains do not divide 30 chains
  EXPECT_THROW(options.validate(), InputError);
  options.configurations = {{30, 1000, 1}};
  EXPECT_THROW(options.validate(), InputError);
  options = tiny_options();
  options.horizon_in_slowest_times = 0.0;
  EXPECT_THROW(options.validate(), InputError);
  options = tiny_options();
  options.modes_hidden = 5;  // 21 units
  EXPECT_THROW(options.validate(), InputError);
  options = tiny_options();
  options.trained_hidden = {13};
  EXPECT_THROW(options.validate(), InputError);
}

}  // namespace
}  // namespace rbmix::experiments
