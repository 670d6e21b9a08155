#include "rbmix/analysis/transition_matrix.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "rbmix/model/rbm.hpp"
#include "rbmix/verify/generators.hpp"
#include "rbmix/verify/gtest_adapter.hpp"
#include "rbmix/verify/operator_invariants.hpp"
#include "support/brute_force.hpp"
#include "support/rule_list.hpp"

namespace rbmix::analysis {
namespace {

// A product of two stochastic 2^6-state matrices against the direct one-product-per-entry assembly: both round
// at most ~12 times per term.
constexpr double kAssemblyTolerance = 1e-15;
// σ from the model's logistic_array against the rule's two-branch σ: a few ulps.
constexpr double kGibbsFormulaTolerance = 1e-14;

// The operators every invariant test runs: every built-in rule (each with the ergodicity it claims), G and T at
// β = 0.5, modified G and T.
std::vector<verify::ExactOperator> all_exact_operators(const Rbm& rbm) {
  std::vector<verify::ExactOperator> ops;
  for (const UnitRule& rule : testing::every_builtin_rule()) ops.push_back(verify::exact_operator(rbm, rule));
  for (const char* rule : {"gibbs", "flip"}) ops.push_back(verify::exact_operator(rbm, parse_unit_rule(rule), 0.5));
  // λ at half and at the whole of the minimum diagonal: the latter removes self-loops exactly.
  for (const std::size_t base : {std::size_t{0}, std::size_t{1}})
    for (const double share : {0.5, 1.0}) ops.push_back(verify::modified_operator(ops[base], share));
  return ops;
}

RC_GTEST_PROP(TransitionMatrix, EveryOperatorSatisfiesTheInvariantsOnRandomRbms, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(3, 3.0);
  for (const auto& op : all_exact_operators(rbm)) RC_ASSERT(verify::check_operator_invariants(op));
}

RC_GTEST_PROP(TransitionMatrix, EveryOperatorSatisfiesTheInvariantsWithExactTies, ()) {
  const Rbm rbm = *verify::arbitrary_tied_rbm(3, 2);
  for (const auto& op : all_exact_operators(rbm)) RC_ASSERT(verify::check_operator_invariants(op));
}

RC_GTEST_PROP(TransitionMatrix, SweepIsTheProductOfTheLayerOperators, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(3, 3.0);
  for (const char* name : {"gibbs", "flip", "mix:0.4", "naive", "unit-modified:0.5"}) {
    const UnitRule rule = parse_unit_rule(name);
    const MatrixD product = layer_transition_matrix(rbm, rule, Layer::hidden, 0.7) *
                            layer_transition_matrix(rbm, rule, Layer::visible, 0.7);
    RC_ASSERT((product - sweep_transition_matrix(rbm, rule, 0.7)).cwiseAbs().maxCoeff() < kAssemblyTolerance);
  }
}

// Independent answer: K_h(x, y) = [v_y = v_x] Π_i σ(±(c_i + W_i v)) from the model's own probabilities.
RC_GTEST_PROP(TransitionMatrix, GibbsHiddenLayerMatchesTheModelsConditionals, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(3, 3.0);
  const JointStateSpace space(rbm);
  const MatrixD layer = layer_transition_matrix(rbm, GibbsRule{}, Layer::hidden);
  for (std::uint64_t x = 0; x < space.size(); ++x)
    for (std::uint64_t y = 0; y < space.size(); ++y) {
      double expected = 0.0;
      if (space.visible_part(x) == space.visible_part(y)) {
        const MatrixD on = rbm.hidden_probabilities(testing::bits_of(space.visible_part(x), rbm.n_visible()));
        expected = 1.0;
        for (int i = 0; i < space.n_hidden(); ++i)
          expected *= JointStateSpace::bit(space.hidden_part(y), i) == 1.0 ? on(0, i) : 1.0 - on(0, i);
      }
      RC_ASSERT(std::abs(layer(static_cast<Eigen::Index>(x), static_cast<Eigen::Index>(y)) - expected) <
                kGibbsFormulaTolerance);
    }
}

// A hand-checked case: one visible and one hidden unit, W = 0, b = 1, c = 0. Under T the hidden unit (x = 0) is
// resampled with 1/2; the visible unit (x = 1) goes 0 → 1 surely and 1 → 0 with e^{−1}.
TEST(TransitionMatrix, FlipTheStateOnAHandCheckedModel) {
  Rbm rbm(1, 1);
  rbm.visible_bias[0] = 1.0;
  const MatrixD sweep = sweep_transition_matrix(rbm, FlipTheStateRule{});
  const double down = std::exp(-1.0);
  // States x = v + 2h: (v, h) = (0,0), (1,0), (0,1), (1,1).
  MatrixD expected(4, 4);
  expected << 0, 0.5, 0, 0.5,                                      //
      0.5 * down, 0.5 * (1 - down), 0.5 * down, 0.5 * (1 - down),  //
      0, 0.5, 0, 0.5,                                              //
      0.5 * down, 0.5 * (1 - down), 0.5 * down, 0.5 * (1 - down);
  EXPECT_LT((sweep - expected).cwiseAbs().maxCoeff(), kGibbsFormulaTolerance);
  const TransitionPattern pattern = sweep_transition_pattern(rbm, FlipTheStateRule{});
  EXPECT_EQ(pattern, (expected.array() > 0).matrix());
}

// Gibbs probabilities σ(±60) round to 1 and 0 in double, but the rule never forbids a move: the structural
// pattern must not mistake underflow for a structural zero.
TEST(TransitionMatrix, StructuralPatternIgnoresUnderflow) {
  Rbm rbm(1, 1);
  rbm.visible_bias[0] = 60.0;
  rbm.hidden_bias[0] = -60.0;
  EXPECT_TRUE(sweep_transition_pattern(rbm, GibbsRule{}).all());
  EXPECT_FALSE(sweep_transition_pattern(rbm, FlipTheStateRule{}).all());
}

// The invariant check itself must be able to fail: a mass shift inside one row keeps rows stochastic but breaks
// πK = π; a false ergodicity claim for the naive flip at W = 0, b = c = 0 must be caught.
TEST(OperatorInvariants, RejectBrokenOperators) {
  Rbm rbm(2, 2);
  rbm.weights(0, 1) = 0.5;
  verify::ExactOperator shifted = verify::exact_operator(rbm, GibbsRule{});
  shifted.sweep(3, 0) += 0.01;
  shifted.sweep(3, 1) -= 0.01;
  EXPECT_FALSE(verify::as_assertion(verify::check_operator_invariants(shifted)));
  verify::ExactOperator naive = verify::exact_operator(Rbm(2, 2), NaiveFlipRule{});
  naive.ergodic = true;
  EXPECT_FALSE(verify::as_assertion(verify::check_operator_invariants(naive)));
  naive.ergodic = false;
  EXPECT_TRUE(verify::as_assertion(verify::check_operator_invariants(naive)));
}

TEST(ModifiedMatrix, RejectsLambdaOutsideItsRange) {
  MatrixD matrix(2, 2);
  matrix << 0.25, 0.75, 0.5, 0.5;
  EXPECT_THROW(modified_matrix(matrix, -0.1), InputError);
  EXPECT_THROW(modified_matrix(matrix, 0.3), InputError);  // above min diagonal 0.25
  EXPECT_THROW(modified_matrix(matrix, std::nan("")), InputError);
  MatrixD identity = MatrixD::Identity(2, 2);
  EXPECT_THROW(modified_matrix(identity, 1.0), InputError);  // λ < 1 is required even when the diagonal is 1
  EXPECT_NO_THROW(modified_matrix(matrix, 0.25));
}

TEST(DenseTransitionMatrix, RefusesStateSpacesTooLargeForDenseStorage) {
  const Rbm rbm(7, 7);
  EXPECT_THROW(sweep_transition_matrix(rbm, GibbsRule{}), InputError);
}

TEST(UnitTransitionTable, RejectsNegativeOrNonFiniteInverseTemperature) {
  const Rbm rbm(2, 2);
  EXPECT_THROW(unit_transition_table(rbm, GibbsRule{}, Layer::hidden, -1.0), InputError);
  EXPECT_THROW(unit_transition_table(rbm, GibbsRule{}, Layer::hidden, std::nan("")), InputError);
}

}  // namespace
}  // namespace rbmix::analysis
