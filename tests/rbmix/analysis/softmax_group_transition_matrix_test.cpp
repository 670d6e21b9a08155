#include "rbmix/analysis/softmax_group_transition_matrix.hpp"

#include <gtest/gtest.h>

#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/verify/gtest_adapter.hpp"
#include "rbmix/verify/operator_invariants.hpp"

namespace rbmix {
namespace {

constexpr double kTolerance = 1e-12;
const SoftmaxGroup kGroup{2, 3};  // visible units 0, 1 binary; 2, 3, 4 the group

Rbm tiny_model(unsigned seed) {
  std::srand(seed);
  Rbm rbm(5, 2);
  rbm.weights = 1.5 * MatrixD::Random(2, 5);
  rbm.visible_bias = 1.5 * VectorD::Random(5);
  rbm.hidden_bias = 1.5 * VectorD::Random(2);
  return rbm;
}

verify::ExactOperator exact_softmax_operator(const Rbm& rbm, const char* rule_text, double beta) {
  const UnitRule rule = parse_unit_rule(rule_text);
  verify::ExactOperator op;
  op.name = std::string(rule_text) + " with a softmax group, β = " + std::to_string(beta);
  op.sweep = analysis::softmax_group_sweep_transition_matrix(rbm, kGroup, rule, beta);
  op.reversible_layers = {analysis::softmax_group_layer_transition_matrix(rbm, kGroup, rule, Layer::hidden, beta),
                          analysis::softmax_group_layer_transition_matrix(rbm, kGroup, rule, Layer::visible, beta)};
  op.pattern =
      analysis::softmax_group_sweep_transition_matrix(rbm, kGroup, rule, beta, Evaluation::structural).array() > 0.0;
  op.stationary = analysis::softmax_group_stationary_distribution(rbm, kGroup, beta);
  // States without a one-hot group are transient, so the chain is not irreducible on all states: no claim.
  return op;
}

TEST(SoftmaxGroupTransitionMatrix, KeepsPiAndDetailedBalancePerLayerForEveryRule) {
  for (const unsigned seed : {1U, 2U})
    for (const char* rule : {"gibbs", "flip", "mix:0.3", "naive"})
      for (const double beta : {1.0, 0.5})
        RBMIX_EXPECT_VERIFIED(verify::check_operator_invariants(exact_softmax_operator(tiny_model(seed), rule, beta)));
}

TEST(SoftmaxGroupTransitionMatrix, IsTheProductOfItsLayers) {
  const Rbm rbm = tiny_model(3);
  const UnitRule rule = parse_unit_rule("flip");
  const MatrixD product = analysis::softmax_group_layer_transition_matrix(rbm, kGroup, rule, Layer::hidden) *
                          analysis::softmax_group_layer_transition_matrix(rbm, kGroup, rule, Layer::visible);
  EXPECT_LT((product - analysis::softmax_group_sweep_transition_matrix(rbm, kGroup, rule)).cwiseAbs().maxCoeff(),
            kTolerance);
}

TEST(SoftmaxGroupTransitionMatrix, NeverLeavesTheOneHotStates) {
  const Rbm rbm = tiny_model(4);
  const analysis::JointStateSpace space(rbm);
  const MatrixD sweep = analysis::softmax_group_sweep_transition_matrix(rbm, kGroup, GibbsRule{});
  const VectorD pi = analysis::softmax_group_stationary_distribution(rbm, kGroup);
  for (Eigen::Index y = 0; y < sweep.cols(); ++y) {
    const std::uint64_t block = (space.visible_part(static_cast<std::uint64_t>(y)) >> 2) & 7U;
    const bool one_hot = block == 1 || block == 2 || block == 4;
    if (!one_hot) {
      EXPECT_EQ(sweep.col(y).cwiseAbs().maxCoeff(), 0.0) << "state " << y << " is entered";
      EXPECT_EQ(pi[y], 0.0);
    }
  }
}

TEST(SoftmaxGroupTransitionMatrix, RefusesAGroupOutsideTheLayer) {
  EXPECT_THROW(analysis::softmax_group_sweep_transition_matrix(tiny_model(1), SoftmaxGroup{3, 3}, GibbsRule{}),
               InputError);
  EXPECT_THROW(analysis::softmax_group_sweep_transition_matrix(tiny_model(1), SoftmaxGroup{0, 1}, GibbsRule{}),
               InputError);
}

}  // namespace
}  // namespace rbmix
