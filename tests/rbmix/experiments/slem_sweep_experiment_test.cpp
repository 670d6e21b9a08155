#include "rbmix/experiments/slem_sweep_experiment.hpp"

#include <gtest/gtest.h>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {
namespace {

// Smoke scale: one share per (size, c), each the count of its RBMs with SLEM(T) < SLEM(G); SLEMs lie in [0, 1].
TEST(SlemSweep, SmokeScaleSharesCountTheRbmsWhereTIsBetter) {
  SlemSweepOptions options = slem_sweep_options(Scale::smoke, 3);
  options.family.weight_bounds = {1, 4};
  const SlemSweepResult result = run_slem_sweep(options).value();
  ASSERT_EQ(result.rbms.size(), 2u * 2u * 10u);
  ASSERT_EQ(result.shares.size(), 4u);
  for (const auto& share : result.shares) {
    int better = 0;
    for (const auto& rbm : result.rbms) {
      if (rbm.size != share.size || rbm.weight_bound != share.weight_bound) continue;
      EXPECT_GE(rbm.slem_gibbs, 0.0);
      EXPECT_LE(rbm.slem_gibbs, 1.0 + 1e-12);
      EXPECT_GE(rbm.slem_flip, 0.0);
      EXPECT_LE(rbm.slem_flip, 1.0 + 1e-12);
      better += rbm.slem_flip < rbm.slem_gibbs;
    }
    EXPECT_EQ(share.flip_better, better);
    EXPECT_EQ(share.rbms, 10);
  }
  EXPECT_EQ(slem_sweep_share_table(result).rows(), 4u);
  EXPECT_EQ(slem_sweep_rbm_table(result).rows(), 40u);
}

// Each RBM draws from the stream of its (size, c, index): the thread count does not matter, and an RBM keeps its
// weights when other sizes are added.
TEST(SlemSweep, EachRbmDependsOnlyOnItsOwnKey) {
  SlemSweepOptions options = slem_sweep_options(Scale::smoke, 5);
  options.family.sizes = {2};
  options.family.weight_bounds = {3};
  const SlemSweepResult alone = run_slem_sweep(options, JobRunner(1)).value();
  options.family.sizes = {3, 2};
  const SlemSweepResult with_other_size = run_slem_sweep(options, JobRunner(2)).value();
  for (std::size_t k = 0; k < alone.rbms.size(); ++k) {
    EXPECT_EQ(alone.rbms[k].slem_gibbs, with_other_size.rbms[10 + k].slem_gibbs);
    EXPECT_EQ(alone.rbms[k].slem_flip, with_other_size.rbms[10 + k].slem_flip);
  }
}

TEST(SlemSweep, OptionsNameWhatIsOutOfRange) {
  SlemSweepOptions options;
  options.family.sizes = {20};
  EXPECT_THROW(options.validate(), InputError);
  options = SlemSweepOptions{};
  options.family.weight_bounds = {-1};
  EXPECT_THROW(run_slem_sweep(options), InputError);
  options = SlemSweepOptions{};
  options.family.rbms_per_setting = 0;
  EXPECT_THROW(options.validate(), InputError);
  EXPECT_EQ(slem_sweep_options(Scale::paper, 1).family.sizes, (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(slem_sweep_options(Scale::paper, 1).family.rbms_per_setting, 100);
}

}  // namespace
}  // namespace rbmix::experiments
