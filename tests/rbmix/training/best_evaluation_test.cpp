#include "rbmix/training/best_evaluation.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace rbmix {
namespace {

// A point at `update` whose only measurement is a training log-likelihood (none: nothing measured).
EvaluationPoint point_with(std::int64_t update, std::optional<double> log_likelihood) {
  EvaluationPoint point;
  point.update = update;
  point.train_log_likelihood = log_likelihood;
  return point;
}

// Against the rule written out by hand: the highest score, the earliest of equals, points without one skipped; and
// observe() true exactly where a point became the best.
RC_GTEST_PROP(BestEvaluation, IsTheEarliestPointOfTheHighestScore, ()) {
  // Few distinct values, so that ties are common; the lowest stands for a point without a score.
  constexpr int unscored = -4;
  std::vector<std::optional<int>> scores;
  for (const int code : *rc::gen::container<std::vector<int>>(rc::gen::inRange(unscored, 4)))
    scores.push_back(code == unscored ? std::nullopt : std::optional<int>(code));
  BestEvaluation best;
  std::optional<std::size_t> expected;
  for (std::size_t k = 0; k < scores.size(); ++k) {
    const bool improves = scores[k] && (!expected || *scores[k] > *scores[*expected]);
    if (improves) expected = k;
    RC_ASSERT(best.observe(point_with(static_cast<std::int64_t>(k), scores[k])) == improves);
  }
  RC_ASSERT(best.best().has_value() == expected.has_value());
  if (expected) RC_ASSERT(best.best()->update == static_cast<std::int64_t>(*expected));
}

// A resumed run's best continues from the curve it was seeded with: a later point must beat the seeded best.
TEST(BestEvaluation, SeededFromACurveALaterPointMustBeatItsBest) {
  BestEvaluation best({point_with(10, -5.0), point_with(20, -3.0), point_with(30, -4.0)});
  ASSERT_TRUE(best.best());
  EXPECT_EQ(best.best()->update, 20);
  EXPECT_FALSE(best.observe(point_with(40, -3.0)));
  EXPECT_EQ(best.best()->update, 20);
  EXPECT_TRUE(best.observe(point_with(50, -2.5)));
  EXPECT_EQ(best.best()->update, 50);
}

// The monitored score (learning_curve.hpp): the log-likelihood where measured, else the pseudo-log-likelihood,
// else the lowest classification error.
TEST(BestEvaluation, ClassificationErrorIsBestWhereLowest) {
  BestEvaluation best;
  for (const auto& [update, error] : {std::pair{1, 0.30}, std::pair{2, 0.10}, std::pair{3, 0.20}}) {
    EvaluationPoint point;
    point.update = update;
    point.train_error = error;
    best.observe(point);
  }
  ASSERT_TRUE(best.best());
  EXPECT_EQ(best.best()->update, 2);
}

TEST(BestEvaluation, PointsWithoutAScoreNeverCount) {
  BestEvaluation best;
  EvaluationPoint unscored = point_with(1, std::nullopt);
  unscored.test_log_likelihood = 0.0;  // a test score is not monitored
  EXPECT_FALSE(best.observe(unscored));
  EXPECT_FALSE(best.best());
}

}  // namespace
}  // namespace rbmix
