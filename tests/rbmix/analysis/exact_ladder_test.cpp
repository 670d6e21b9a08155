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

// Each rung of the sampled ladder has its model's distribution: 2 000 independent ladders after 100 steps, the visible
// states of every rung against the exact marginal p_k(v) by χ². Rungs 0…3, three rules: 12 tests at p < 1e-5 each,
// a false failure once in about 8 000 runs (Bonferroni). Ladders of these rungs mix within a few steps (a ladder of
// three of them is within 1e-5 of its distribution after 10 steps in the bound test below), so after 100 steps the
// law is the stationary one far within the test's power.
TEST_P(ExactLadderByRule, EveryRungOfTheSampledLadderHasItsModelsDistribution) {
  const std::vector<Rbm> rungs = small_trajectory(5, 3, 11, {1.0, 2.0, 3.0});
  const UnitRule rule = parse_unit_rule(GetParam());
  constexpr Eigen::Index ladders = 2000;
  constexpr Eigen::Index steps = 100;
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
  // Every link exchanged (the ladder is not split).
  EXPECT_TRUE(chains.statistics().closed_links().empty());
}

// One ladder step from every state zero has the exact chain's law: the visible states of all rungs together (8³ cells)
// of 200 000 sampled ladders against ExactLadder's step, by χ², p < 1e-6 for each of the three rules (a false failure
// once in about 300 000 runs). Unlike the marginals above, this sees the step itself: a sampler that carried an
// exchanged replica's h along under T (whose hidden update reads h) instead of redrawing it from its new rung's
// p(h | v) moves the law after one step far beyond what 200 000 ladders resolve under T (p = 3e-24 with that
// mutant; under T^0.5, which reads h at half the units, the same mutant stays within the test's power).
// Under G the sampler's h differs from the exact chain's after an exchange by design (the header of
// exact_ladder.hpp), and the law of v, compared here, is the same.
TEST_P(ExactLadderByRule, OneSampledLadderStepHasTheExactChainsLaw) {
  const std::vector<Rbm> rungs = small_trajectory(3, 2, 29, {2.5, 5.0});
  const UnitRule rule = parse_unit_rule(GetParam());
  constexpr Eigen::Index ladders = 200000;
  LadderChains<double> chains(rungs, ladders, {rule, 1}, 31);
  chains.step();
  const ExactLadder exact(rungs, rule, 1);
  const VectorD after = exact.step(exact.start_distribution(parse_start_distribution("zeros")));
  const JointStateSpace space(rungs.front());
  const std::uint64_t visible_states = space.visible_states();
  const std::size_t rung_count = rungs.size();
  // Cell of a ladder: its rungs' visible states, rung 0 the most significant digit, as rung 0 is the slowest-varying
  // coordinate of ExactLadder's index.
  auto cell_of_exact_state = [&](std::uint64_t index) {
    std::uint64_t cell = 0;
    for (std::size_t k = 0; k < rung_count; ++k) {
      std::uint64_t stride = 1;
      for (std::size_t above = k + 1; above < rung_count; ++above) stride *= space.size();
      cell = cell * visible_states + space.visible_part((index / stride) % space.size());
    }
    return cell;
  };
  std::uint64_t cells = 1;
  for (std::size_t k = 0; k < rung_count; ++k) cells *= visible_states;
  VectorD probabilities = VectorD::Zero(static_cast<Eigen::Index>(cells));
  for (std::uint64_t index = 0; index < exact.size(); ++index)
    probabilities[static_cast<Eigen::Index>(cell_of_exact_state(index))] += after[static_cast<Eigen::Index>(index)];
  std::vector<std::uint64_t> counts(cells, 0);
  for (Eigen::Index r = 0; r < ladders; ++r) {
    std::uint64_t cell = 0;
    for (std::size_t k = 0; k < rung_count; ++k) {
      const MatrixD& visible = chains.rung(static_cast<Eigen::Index>(k)).visible();
      std::uint64_t v = 0;
      for (Eigen::Index j = 0; j < visible.cols(); ++j) v |= std::uint64_t{visible(r, j) != 0.0} << j;
      cell = cell * visible_states + v;
    }
    ++counts[cell];
  }
  EXPECT_GT(verify::chi_squared_p_value(counts, probabilities), 1e-6);
}

// Monte Carlo standard errors the bound may fall below the truth by before the test calls it a bug: 3.
constexpr double kStandardErrors = 3.0;
// Past the last meeting no pair contributes and the standard error says nothing: a term positive with probability p
// is 0 in all R pairs with probability (1 − p)^R, below 1e-3 once p > ln(1000)/R (as the single-chain bound's test).
constexpr double kUnseenTail = 6.91;  // ln(1000)

// The coupled ladders' bound lies at or above the exact total variation of the whole ladder from the same start at
// every t (the L-lag bound, Biswas et al. 2019, applied to the ladder's chain), up to kStandardErrors standard errors
// and the unseen tail. 300 pairs.
TEST_P(ExactLadderByRule, TheCoupledLaddersBoundLiesAboveTheExactLadderDistance) {
  const std::vector<Rbm> rungs = small_trajectory(4, 2, 5, {2.5, 5.0});
  const UnitRule rule = parse_unit_rule(GetParam());
  const StartDistribution start = parse_start_distribution("ones");
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
    EXPECT_GE(bound[t] + kStandardErrors * result.bound.total_variation_standard_error[t] +
                  kUnseenTail / static_cast<double>(options.coupling.pairs),
              truth[t])
        << "t = " << t;
  // The comparison says something: after one step the exact distance (0.0027 for G, 0.06 for T, 0.027 for T^0.5)
  // is still far above what 300 pairs can resolve as zero.
  EXPECT_GT(truth[1], 1e-3);
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
