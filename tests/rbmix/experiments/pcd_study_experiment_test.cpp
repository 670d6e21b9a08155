#include "rbmix/experiments/pcd_study_experiment.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {
namespace {

PcdStudyOptions quick_options() {
  PcdStudyOptions options = pcd_study_options(Scale::smoke, 5);
  options.updates = 60;
  options.mrf_updates = 60;
  options.trials = 1;
  options.evaluations = 2;
  return options;
}

// Smoke scale, shortened: one curve per (part, algorithm, operator) with MF-CD once (it samples nothing), the MRF's
// exact gradient, PL and PCD with each operator; scores in range (log-likelihoods ≤ 0, errors in [0, 1]); the
// chosen rate is one of the grid; update 0 is evaluated first.
TEST(PcdStudy, SmokeScaleGivesEveryCurveWithScoresInRange) {
  const PcdStudyOptions options = quick_options();
  const PcdStudyResult result = run_pcd_study(options).value();
  ASSERT_EQ(result.curves.size(), 3u * 7u + 4u);
  for (const auto& curve : result.curves) {
    ASSERT_EQ(curve.mean.size(), static_cast<std::size_t>(options.evaluations) + 1) << curve.algorithm;
    EXPECT_EQ(curve.mean.front().update, 0);
    const auto& rates = curve.part == PcdStudyPart::mrf ? options.mrf_learning_rates : options.learning_rates;
    EXPECT_NE(std::find(rates.begin(), rates.end(), curve.learning_rate), rates.end());
    if (curve.part == PcdStudyPart::classification) {
      EXPECT_GE(curve.final_test_mean, 0.0);
      EXPECT_LE(curve.final_test_mean, 1.0);
    } else {
      EXPECT_LT(curve.final_test_mean, 0.0);
      EXPECT_TRUE(std::isfinite(curve.final_test_mean));
    }
  }
  EXPECT_GT(result.mrf_training_entropy, 0.0);
  EXPECT_LE(result.mrf_training_entropy, 16.0 * std::log(2.0));
}

// Every run is seeded from (seed, trial) alone: one thread or two give the same scores (the times differ).
TEST(PcdStudy, ScoresDoNotDependOnTheThreadCount) {
  PcdStudyOptions options = quick_options();
  options.parts = {PcdStudyPart::classification, PcdStudyPart::mrf};
  const PcdStudyResult one = run_pcd_study(options, JobRunner(1)).value();
  const PcdStudyResult two = run_pcd_study(options, JobRunner(2)).value();
  ASSERT_EQ(one.curves.size(), two.curves.size());
  for (std::size_t k = 0; k < one.curves.size(); ++k) {
    EXPECT_EQ(one.curves[k].learning_rate, two.curves[k].learning_rate);
    for (std::size_t point = 0; point < one.curves[k].mean.size(); ++point) {
      EXPECT_EQ(one.curves[k].mean[point].validation, two.curves[k].mean[point].validation);
      EXPECT_EQ(one.curves[k].mean[point].update, two.curves[k].mean[point].update);
    }
  }
}

// The ais part's two estimators score the same runs (the monitor draws from its own streams, so the training is the
// same whichever watches it): log Z tracked along training against one AIS run per evaluation. On these 16 × 16
// models the two agree to well within a nat at every point (measured: within 0.1), the tracked runs alone carry the
// AIS check of their final model, and it agrees with the tracked final score.
TEST(PcdStudy, TrackedLikelihoodAgreesWithAisAtEveryEvaluation) {
  PcdStudyOptions options = quick_options();
  options.parts = {PcdStudyPart::ais};
  options.learning_rates = {0.1};
  options.updates = 200;
  options.ais_distributions = 1000;
  options.likelihood = PcdStudyLikelihood::trajectory;
  const PcdStudyResult tracked = run_pcd_study(options).value();
  options.likelihood = PcdStudyLikelihood::ais;
  const PcdStudyResult per_evaluation = run_pcd_study(options).value();
  ASSERT_EQ(tracked.curves.size(), per_evaluation.curves.size());
  for (std::size_t k = 0; k < tracked.curves.size(); ++k) {
    const PcdStudyCurve& curve = tracked.curves[k];
    for (std::size_t point = 0; point < curve.mean.size(); ++point)
      EXPECT_NEAR(curve.mean[point].test, per_evaluation.curves[k].mean[point].test, 0.5)
          << curve.algorithm << " " << curve.rule << " at update " << curve.mean[point].update;
    EXPECT_NEAR(curve.final_ais_test_mean, curve.final_test_mean, 0.5) << curve.algorithm << " " << curve.rule;
    EXPECT_TRUE(std::isnan(per_evaluation.curves[k].final_ais_test_mean));
  }
}

TEST(PcdStudy, OptionsRefuseEmptyOrNonPositiveSettings) {
  PcdStudyOptions options = quick_options();
  options.trials = 0;
  EXPECT_THROW(options.validate(), InputError);
  options = quick_options();
  options.parts.clear();
  EXPECT_THROW(options.validate(), InputError);
  options = quick_options();
  options.learning_rates = {0.1, -0.1};
  EXPECT_THROW(options.validate(), InputError);
  options = quick_options();
  options.exact_hidden = 40;
  EXPECT_THROW(options.validate(), InputError);
  EXPECT_THROW(parse_pcd_study_part("horse"), InputError);
  EXPECT_EQ(parse_pcd_study_part("mrf"), PcdStudyPart::mrf);
  EXPECT_THROW(parse_pcd_study_likelihood("exact"), InputError);
  EXPECT_EQ(parse_pcd_study_likelihood("ais"), PcdStudyLikelihood::ais);
}

}  // namespace
}  // namespace rbmix::experiments
