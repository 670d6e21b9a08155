#include "rbmix/experiments/ais_check_experiment.hpp"

#include <gtest/gtest.h>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {
namespace {

// Smoke scale without MNIST, cut to K ∈ {10, 100}, 100 training updates and 5 timed distributions. Rows: BAS 4×4
// forward in float and double and reverse from data, the random 784×20 stand-in forward in float and double (it
// has no data to start reverse AIS from), each at every K; each estimate lies inside its own band, and every row of
// a model carries the same exact log Z.
TEST(AisCheck, SmokeScaleComparesEveryRunWithTheExactValue) {
  AisCheckOptions options = ais_check_options(Scale::smoke, 3, {});
  options.distribution_counts = {10, 100};
  options.bars_training_updates = 100;
  options.timing_distributions = 5;
  const AisCheckResult result = run_ais_check(options).value();
  ASSERT_EQ(result.rows.size(), (3u + 2u) * 2u);
  EXPECT_EQ(result.exact_seconds.size(), 2u);
  for (const AisCheckRow& row : result.rows) {
    EXPECT_EQ(row.exact_log_partition, result.rows[row.model == result.rows.front().model ? 0 : 6].exact_log_partition);
    EXPECT_LE(row.band_lower, row.ais_log_partition);
    EXPECT_GE(row.band_upper, row.ais_log_partition);
    EXPECT_GT(row.effective_sample_size, 0.0);
    EXPECT_LE(row.effective_sample_size, static_cast<double>(options.particles) + 1e-9);
  }
  EXPECT_EQ(result.rows[6].model, "random_784x20");
  EXPECT_EQ(ais_check_table(result).rows(), result.rows.size());
  EXPECT_EQ(ais_timing_table(options, result).rows(), 2u);
}

TEST(AisCheck, ScalesDifferInTheirCounts) {
  const AisCheckOptions smoke = ais_check_options(Scale::smoke, 1, {});
  const AisCheckOptions paper = ais_check_options(Scale::paper, 1, {});
  EXPECT_FALSE(smoke.salakhutdinov_murray_schedule);
  EXPECT_TRUE(paper.salakhutdinov_murray_schedule);
  EXPECT_EQ(paper.distribution_counts.back(), 10000);
  AisCheckOptions invalid = smoke;
  invalid.distribution_counts = {0};
  EXPECT_THROW(invalid.validate(), InputError);
}

}  // namespace
}  // namespace rbmix::experiments
