#include "rbmix/experiments/dcp_small.hpp"

#include <gtest/gtest.h>

namespace rbmix::experiments {
namespace {

// Smoke scale: every (data set, algorithm, η) gets a mean curve below the best possible value. On Bars & Stripes
// 200 epochs already improve on the start; on Shifting Bar every method still sits near the start, −3.14 (002 §4.2.1:
// CD and PCD stay there for thousands of epochs).
TEST(DcpSmall, SmokeScaleProducesSaneCurves) {
  DcpSmallConfig config = dcp_small_config("smoke", 3);
  config.threads = 2;
  const DcpSmallResult result = run_dcp_small(config);
  ASSERT_EQ(result.curves.size(), 2u * 5u * 2u);
  EXPECT_EQ(result.evaluation_epochs.front(), 0);
  EXPECT_EQ(result.evaluation_epochs.back(), config.epochs);
  EXPECT_NEAR(config.data_sets[0].best_log_likelihood, -2.599, 5e-4);
  EXPECT_NEAR(config.data_sets[1].best_log_likelihood, -std::log(9.0), 1e-12);
  for (const auto& curve : result.curves) {
    const double best = config.data_sets[curve.data_set].best_log_likelihood;
    ASSERT_EQ(curve.mean_log_likelihood.size(), result.evaluation_epochs.size());
    EXPECT_LE(curve.maximum, best + 1e-9);
    if (curve.data_set == 0) {
      EXPECT_GT(curve.maximum, curve.mean_log_likelihood.front() + 0.1);
    } else {
      EXPECT_NEAR(curve.maximum, curve.mean_log_likelihood.front(), 0.1);
    }
  }
}

TEST(DcpSmall, EpochToNinetyPercentIsTheFirstCrossing) {
  const std::vector<std::int64_t> epochs{0, 10, 20, 30, 40};
  // start −5, maximum −3: the target is −5 + 0.9·2 = −3.2, first reached at epoch 30.
  EXPECT_EQ(epoch_to_fraction_of_maximum({-5.0, -4.0, -3.3, -3.2, -3.0}, epochs, 0.9), 30);
  EXPECT_EQ(epoch_to_fraction_of_maximum({-5.0, -3.0, -4.0, -3.5, -3.1}, epochs, 0.9), 10);
}

}  // namespace
}  // namespace rbmix::experiments
