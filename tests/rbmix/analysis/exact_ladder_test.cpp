#include "rbmix/analysis/exact_ladder.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>

#include "rbmix/analysis/convergence_bound.hpp"
#include "rbmix/analysis/state_space.hpp"
#include "rbmix/sampling/coupled_ladders.hpp"
#include "rbmix/sampling/tempering_ladder.hpp"
#include "rbmix/verify/chi_squared.hpp"
#include "support/ladder_models.hpp"
#include "support/test_names.hpp"

namespace rbmix::analysis {
namespace {

using testing::small_trajectory;

class ExactLadderByRule : public ::testing::TestWithParam<const char*> {};

// The product of the rungs' distributions is stationary for the whole ladder step (sweeps and both exchange phases),
// exactly, on the product space of three rungs of 6 + 1 units (2^21 states).
TEST_P(ExactLadderByRule, TheProductOfTheRungDistributionsIsStationary) {
  const std::vector<Rbm> rungs = small_trajectory(6, 1, 3, {1.5, 3.0});
  const ExactLadder ladder(rungs, parse_unit_rule(GetParam()), 1);
  ASSERT_EQ(ladder.size(), std::uint64_t{1} << 21);
  const VectorD stationary = ladder.product_of_rung_distributions();
  // Double rounding over about 2^21 additions of terms below 1: far below 1e-12.
  EXPECT_LT((ladder.step(stationary) - stationary).cwiseAbs().sum(), 1e-12);
}

INSTANTIATE_TEST_SUITE_P(GibbsAndFlipTheState, ExactLadderByRule, ::testing::Values("gibbs", "flip", "mix:0.5"),
                         [](const auto& info) { return testing::test_name(info.param); });

// Each rung of the sampled ladder has its model's distribution: 4 000 independent ladders after 60 steps, the visible
// states of every rung against the exact marginal p_k(v) by χ². Rungs 0…3, three rules: 12 tests at p < 1e-5 each,
// a false failure once in about 8 000 runs (Bonferroni). The ladder mixes in a few steps (its exact TV after 60 steps
// is below 1e-6, checked below), so the law after 60 steps is the stationary one to far within the test's power.
TEST_P(ExactLadderByRule, EveryRungOfTheSampledLadderHasItsModelsDistribution) {
  const std::vector<Rbm> rungs = small_trajectory(5, 3, 11, {1.0, 2.0, 3.0});
  const UnitRule rule = parse_unit_rule(GetParam());
  constexpr Eigen::Index ladders = 4000;
  constexpr Eigen::Index steps = 60;
  LadderChains<double> chains(rungs, ladders, {rule, 1}, 17);
  for (Eigen::Index step = 0; step < steps; ++step) chains.step();
  for (std::size_t k = 0; k < rungs.size(); ++k) {
    const JointStateSpace space(rungs[k]);
    const VectorD joint = space.stationary_distribution(rungs[k]);
    VectorD marginal = VectorD::Zero(static_cast<Eigen::Index>(space.visible_states()));
    for (std::uint64_t x = 0; x < space.size(); ++x)
      marginal[static_cast<Eigen::Index>(space.visible_part(x))] += joint[static_cast<Eigen::Index>(x)];
    std::vector<std::uint64_t> counts(space.visible_states(), 0);
    const MatrixD& visible = chains.rung(static_cast<Eigen::Index>(k)).visible();
    for (Eigen::Index r = 0; r < ladders; ++r) {
      std::uint64_t v = 0;
      for (Eigen::Index j = 0; j < visible.cols(); ++j) v |= std::uint64_t{visible(r, j) != 0.0} << j;
      ++counts[v];
    }
    EXPECT_GT(verify::chi_squared_p_value(counts, marginal), 1e-5) << "rung " << k;
  }
  const ExactLadder exact(rungs, rule, 1);
  EXPECT_LT(exact.total_variation(exact.start_distribution(parse_start_distribution("zeros")), steps)[steps], 1e-6);
  // Every link exchanged (the ladder is not split).
  EXPECT_TRUE(chains.statistics().closed_links().empty());
}

// The coupled ladders' bound + 3 standard errors lies at or above the exact total variation of the whole ladder from
// the same start at every t (the L-lag bound, Biswas et al. 2019 Thm 2.1, applied to the ladder's chain). 300 pairs;
// a failure at one t is a 3-standard-error event of the Monte Carlo mean.
TEST_P(ExactLadderByRule, TheCoupledLaddersBoundLiesAboveTheExactLadderDistance) {
  const std::vector<Rbm> rungs = small_trajectory(4, 2, 5, {1.5, 3.5});
  const UnitRule rule = parse_unit_rule(GetParam());
  const StartDistribution start = parse_start_distribution("uniform");
  LadderBoundOptions options;
  options.coupling.rule = rule;
  options.coupling.pairs = 300;
  options.coupling.lag = 2;
  options.coupling.max_sweeps = 2000;
  options.coupling.seed = 23;
  const LadderConvergenceBound result = ladder_convergence_bound(rungs, start, options);
  ASSERT_TRUE(result.bound_available()) << result.bound.met << " met";
  const VectorD& bound = result.bound.total_variation;
  const ExactLadder exact(rungs, rule, 1);
  const VectorD truth = exact.total_variation(exact.start_distribution(start), bound.size() - 1);
  for (Eigen::Index t = 0; t < bound.size(); ++t)
    EXPECT_GE(bound[t] + 3.0 * result.bound.total_variation_standard_error[t], truth[t]) << "t = " << t;
  // The bound says something: it starts near 1 and the exact distance is far from 0 at t = 1.
  EXPECT_GT(truth[1], 0.05);
}

// A ladder whose link is never exchanged is split: rung 1 lives on all-ones states that rung 0 (all zeros) never
// proposes with a chance worth taking. Every rung's pairs still meet, but no bound is claimed.
TEST(LadderConvergenceBound, AClosedLinkGivesNoBound) {
  Rbm zeros(3, 2), ones(3, 2);
  zeros.visible_bias.setConstant(-30.0);
  ones.visible_bias.setConstant(30.0);
  LadderBoundOptions options;
  options.coupling.pairs = 10;
  options.coupling.max_sweeps = 200;
  const LadderConvergenceBound result =
      ladder_convergence_bound({zeros, ones}, parse_start_distribution("uniform"), options);
  EXPECT_TRUE(result.bound.all_met());
  ASSERT_EQ(result.closed_links, std::vector<Eigen::Index>{0});
  EXPECT_FALSE(result.bound_available());
  EXPECT_EQ(result.bound.total_variation.size(), 0);
}

}  // namespace
}  // namespace rbmix::analysis
