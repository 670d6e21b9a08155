#include "rbmix/analysis/binomial_interval.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "rbmix/core/error.hpp"

namespace rbmix::analysis {
namespace {

// Newcombe 1998, Table II, method 3 (the score interval without continuity correction), to the 4 decimals printed.
TEST(WilsonInterval, MatchesNewcombesPublishedValues) {
  constexpr double printed = 0.5e-4;  // the table rounds to 4 decimals
  const struct {
    int successes, trials;
    double lower, upper;
  } cases[] = {{81, 263, 0.2553, 0.3662}, {15, 148, 0.0624, 0.1605}, {0, 20, 0.0, 0.1611}, {1, 29, 0.0061, 0.1718}};
  for (const auto& c : cases) {
    const BinomialInterval interval = wilson_interval(c.successes, c.trials);
    EXPECT_NEAR(interval.lower, c.lower, printed) << c.successes << " of " << c.trials;
    EXPECT_NEAR(interval.upper, c.upper, printed) << c.successes << " of " << c.trials;
  }
}

// The interval is the set of shares the score test does not reject: at each end the score statistic equals z, and
// the interval holds the observed share, inside [0, 1].
RC_GTEST_PROP(WilsonInterval, EndsAreWhereTheScoreTestRejects, ()) {
  const int trials = *rc::gen::inRange(1, 5000);
  const int successes = *rc::gen::inRange(0, trials + 1);
  const BinomialInterval interval = wilson_interval(successes, trials);
  const double share = static_cast<double>(successes) / trials;
  RC_ASSERT(interval.lower >= 0.0);
  RC_ASSERT(interval.upper <= 1.0);
  RC_ASSERT(interval.lower <= share);
  RC_ASSERT(share <= interval.upper);
  const auto score = [&](double p) { return std::abs(successes - trials * p) / std::sqrt(trials * p * (1.0 - p)); };
  constexpr double rounding = 1e-6;  // the closed form against the statistic, each in double
  if (successes > 0) RC_ASSERT(std::abs(score(interval.lower) - binomial_interval_quantile) < rounding);
  if (successes < trials) RC_ASSERT(std::abs(score(interval.upper) - binomial_interval_quantile) < rounding);
  if (successes == 0) RC_ASSERT(interval.lower == 0.0);
  if (successes == trials) RC_ASSERT(interval.upper == 1.0);
}

TEST(WilsonInterval, NoTrialsKnowNothingAndImpossibleCountsAreRefused) {
  const BinomialInterval none = wilson_interval(0, 0);
  EXPECT_EQ(none.lower, 0.0);
  EXPECT_EQ(none.upper, 1.0);
  EXPECT_THROW(wilson_interval(5, 4), InputError);
  EXPECT_THROW(wilson_interval(-1, 4), InputError);
}

}  // namespace
}  // namespace rbmix::analysis
