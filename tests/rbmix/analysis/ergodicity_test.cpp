#include "rbmix/analysis/ergodicity.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "rbmix/verify/generators.hpp"
#include "support/rule_list.hpp"

namespace rbmix::analysis {
namespace {

TransitionPattern pattern_of(int size, std::initializer_list<std::pair<int, int>> edges) {
  TransitionPattern pattern = TransitionPattern::Zero(size, size);
  for (const auto& [from, to] : edges) pattern(from, to) = true;
  return pattern;
}

TEST(Ergodicity, ACycleOfThreeHasPeriodThree) {
  const TransitionPattern pattern = pattern_of(3, {{0, 1}, {1, 2}, {2, 0}});
  const ErgodicityReport report = analyse_ergodicity(PatternGraph(pattern));
  EXPECT_TRUE(report.irreducible);
  EXPECT_EQ(report.period, 3U);
  EXPECT_FALSE(report.ergodic());
}

TEST(Ergodicity, CyclesOfTwoAndThreeThroughOneStateAreAperiodic) {
  const TransitionPattern pattern = pattern_of(4, {{0, 1}, {1, 0}, {0, 2}, {2, 3}, {3, 0}});
  const ErgodicityReport report = analyse_ergodicity(PatternGraph(pattern));
  EXPECT_TRUE(report.irreducible);
  EXPECT_EQ(report.period, 1U);
}

TEST(Ergodicity, CountsClassesOfAReducibleChain) {
  // {0,1} closed, 2 → 0 transient, 3 absorbing.
  const TransitionPattern pattern = pattern_of(4, {{0, 1}, {1, 0}, {2, 0}, {2, 2}, {3, 3}});
  const ErgodicityReport report = analyse_ergodicity(PatternGraph(pattern));
  EXPECT_FALSE(report.irreducible);
  EXPECT_EQ(report.communicating_classes, 3U);
  EXPECT_EQ(report.period, 2U);
}

// docs/algorithms/operators.md §2: W = 0, b = c = 0 under the naive flip flips every unit every sweep: x ↦ complement
// of x, pairs of states with period 2. Flip-the-state resamples at x = 0 and is ergodic.
TEST(Ergodicity, NaiveFlipIsPeriodicWhereFlipTheStateIsErgodic) {
  const Rbm rbm(2, 3);
  const ErgodicityReport naive = analyse_ergodicity(StagedSweepGraph(rbm, NaiveFlipRule{}));
  EXPECT_FALSE(naive.irreducible);
  EXPECT_EQ(naive.communicating_classes, 16U);
  EXPECT_EQ(naive.period, 2U);
  EXPECT_TRUE(analyse_ergodicity(StagedSweepGraph(rbm, FlipTheStateRule{})).ergodic());
}

// The staged graph (m + n single-unit steps per sweep) and the dense pattern of K must agree.
RC_GTEST_PROP(Ergodicity, StagedSweepGraphAgreesWithTheDensePattern, ()) {
  const Rbm rbm = *verify::arbitrary_tied_rbm(3, 1);
  const double beta = *rc::gen::element(1.0, 0.0);
  for (const UnitRule& rule : testing::every_builtin_rule()) {
    const TransitionPattern pattern = sweep_transition_pattern(rbm, rule, beta);
    const ErgodicityReport dense = analyse_ergodicity(PatternGraph(pattern));
    const ErgodicityReport staged = analyse_ergodicity(StagedSweepGraph(rbm, rule, beta));
    RC_ASSERT(dense.communicating_classes == staged.communicating_classes);
    RC_ASSERT(dense.irreducible == staged.irreducible);
    RC_ASSERT(dense.period == staged.period);
  }
}

// The sweep's ergodicity from the structural tables (no graph where every unit transition is possible) must be
// the staged graph's, for every rule: tied RBMs make the flips' deterministic transitions, random β = 0 the ties.
RC_GTEST_PROP(Ergodicity, SweepErgodicityAgreesWithTheStagedGraph, ()) {
  const Rbm rbm = *rc::gen::oneOf(verify::arbitrary_tied_rbm(3, 1), verify::arbitrary_tiny_rbm(3, 2.0));
  const double beta = *rc::gen::element(1.0, 0.0);
  const JointStateSpace space(rbm);
  for (const UnitRule& rule : testing::every_builtin_rule()) {
    const ErgodicityReport staged = analyse_ergodicity(StagedSweepGraph(rbm, rule, beta));
    const ErgodicityReport sweep =
        analyse_sweep_ergodicity(space, unit_transition_table(rbm, rule, Layer::hidden, beta, Evaluation::structural),
                                 unit_transition_table(rbm, rule, Layer::visible, beta, Evaluation::structural));
    RC_ASSERT(sweep.communicating_classes == staged.communicating_classes);
    RC_ASSERT(sweep.irreducible == staged.irreducible);
    RC_ASSERT(sweep.period == staged.period);
  }
}

}  // namespace
}  // namespace rbmix::analysis
