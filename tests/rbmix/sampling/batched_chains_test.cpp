#include "rbmix/sampling/batched_chains.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <type_traits>

#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/verify/sampled_transitions.hpp"
#include "support/tied_rbm.hpp"

namespace rbmix {
namespace {

// The loop docs/design.md §1 promises: the batched sampler's empirical one-step transitions from a state must match the
// exact row of K built from the same unit rule. One χ² test per (operator, start state); the whole family is
// Bonferroni-corrected so that a correct sampler fails it with probability ≤ kFalseFailureRate.
constexpr double kFalseFailureRate = 1e-6;
constexpr Eigen::Index kChainsPerRow = 20000;
constexpr std::uint64_t kSeed = 20240611;

struct OperatorCase {
  std::string rule;
  double beta;
};
const std::vector<OperatorCase> kOperators{{"gibbs", 1.0}, {"flip", 1.0}, {"mix:0.5", 1.0},          {"naive", 1.0},
                                           {"gibbs", 0.5}, {"flip", 0.5}, {"unit-modified:0.6", 1.0}};

using Counts = std::vector<verify::TransitionCounts>;  // [operator][start][next]

// The sampler's counts for every operator, drawn once per precision (fixed seed, disjoint streams per operator and
// precision).
template <typename Scalar>
const Counts& sampled_counts() {
  static const auto counts = [] {
    Counts all;
    const auto chains =
        static_cast<std::uint64_t>(kChainsPerRow) * analysis::JointStateSpace(testing::tied_rbm()).size();
    const std::uint64_t first = std::is_same_v<Scalar, double> ? 0 : kOperators.size() * chains;
    for (std::size_t k = 0; k < kOperators.size(); ++k)
      all.push_back(verify::batched_chains_transition_counts<Scalar>(
          testing::tied_rbm(), parse_unit_rule(kOperators[k].rule), kOperators[k].beta, kChainsPerRow, kSeed,
          first + k * chains));
    return all;
  }();
  return counts;
}

// The smallest p-value over every (operator, start state) of the sampler's counts against the exact rows of
// `expected_rule` (the sampled rule itself, or a wrong one for the negative test).
double smallest_p_value(const std::function<std::string(const OperatorCase&)>& expected_rule,
                        const Counts& counts = sampled_counts<double>()) {
  const Rbm rbm = testing::tied_rbm();
  double smallest = 1.0;
  for (std::size_t k = 0; k < kOperators.size(); ++k) {
    const MatrixD exact =
        analysis::sweep_transition_matrix(rbm, parse_unit_rule(expected_rule(kOperators[k])), kOperators[k].beta);
    smallest = std::min(smallest, verify::smallest_row_p_value(counts[k], exact).smallest_p_value);
  }
  return smallest;
}

// Both precisions' families together fail with probability ≤ kFalseFailureRate.
double bonferroni_threshold() {
  return verify::bonferroni_threshold(kFalseFailureRate,
                                      2 * kOperators.size() * analysis::JointStateSpace(testing::tied_rbm()).size());
}

TEST(BatchedChains, OneSweepMatchesTheExactRowForEveryOperatorAndStart) {
  EXPECT_GT(smallest_p_value([](const OperatorCase& op) { return op.rule; }), bonferroni_threshold());
}

// The chains in float (training's and AIS's default precision) against the same exact rows, built in double.
TEST(BatchedChains, FloatChainsMatchTheExactRowForEveryOperatorAndStart) {
  EXPECT_GT(smallest_p_value([](const OperatorCase& op) { return op.rule; }, sampled_counts<float>()),
            bonferroni_threshold());
}

// Power: the same counts against a subtly wrong rule — T^0.9 (a tenth of Gibbs mixed in) for T and for the naive
// flip, T^0.4 for T^0.5, flip for Gibbs — must be rejected by the same routine.
TEST(BatchedChains, ChiSquaredRejectsASubtlyWrongRule) {
  const auto wrong = [](const OperatorCase& op) -> std::string {
    if (op.rule == "gibbs") return "mix:0.1";
    if (op.rule == "mix:0.5") return "mix:0.4";
    return "mix:0.9";
  };
  EXPECT_LT(smallest_p_value(wrong), bonferroni_threshold());
}

// The sweep's layer order, K = K_h K_v: hidden first given v, then visible given the new h. With the flip rule the
// moves of x > 0 from s = 0 and of x < 0 from s = 1 are certain, so from v = 0, h = 1 with c < 0 and b > 0 every
// chain must reach v = 1, h = 0: h falls (input c), then v rises (input b + W·0). Visible first would see the
// input b + W < 0 and leave most chains at v = 0.
TEST(BatchedChains, ASweepUpdatesTheHiddenLayerFirst) {
  Rbm rbm(1, 1);
  rbm.weights << -3.0;
  rbm.visible_bias << 1.0;
  rbm.hidden_bias << -1.0;
  BatchedChains<double> chains(1000, 1, 1, kSeed);
  chains.hidden().setOnes();
  chains.sweep(rbm, FlipTheStateRule{});
  EXPECT_TRUE((chains.visible().array() == 1.0).all());
  EXPECT_TRUE((chains.hidden().array() == 0.0).all());
}

// The built-in rules through UnitRule are dispatched into the concrete templates a user's own rule runs through:
// the same seed gives the same chains either way.
TEST(BatchedChains, TheVariantAndTheConcreteRuleGiveTheSameChains) {
  const Rbm rbm = testing::tied_rbm();
  BatchedChains<float> through_variant(64, 3, 2, kSeed), concrete(64, 3, 2, kSeed);
  for (int sweep = 0; sweep < 5; ++sweep) {
    through_variant.sweep(rbm.cast<float>(), UnitRule{MixtureRule{0.3}});
    concrete.sweep(rbm.cast<float>(), MixtureRule{0.3});
  }
  EXPECT_EQ(through_variant.visible(), concrete.visible());
  EXPECT_EQ(through_variant.hidden(), concrete.hidden());
}

// The chains' energies (c + W v by the 0/1 product, then −hᵀ(c + W v) − bᵀv) are E(v, h) of the model to rounding,
// on states with few ones (the binary path) and many (the dense path), and for every chain.
TEST(BatchedChains, EnergiesAreTheModelsEnergyOfEveryChain) {
  Rbm rbm(40, 30);
  RandomStream stream(7, 0, StreamDomain::initialisation);
  for (Eigen::Index k = 0; k < rbm.weights.size(); ++k) rbm.weights.data()[k] = stream.normal();
  for (Eigen::Index k = 0; k < rbm.visible_bias.size(); ++k) rbm.visible_bias[k] = stream.normal();
  for (Eigen::Index k = 0; k < rbm.hidden_bias.size(); ++k) rbm.hidden_bias[k] = stream.normal();
  for (const double share_of_ones : {0.1, 0.7}) {
    BatchedChains<double> chains(25, 40, 30, kSeed);
    for (Eigen::Index k = 0; k < chains.visible().size(); ++k)
      chains.visible().data()[k] = stream.uniform() < share_of_ones ? 1.0 : 0.0;
    for (Eigen::Index k = 0; k < chains.hidden().size(); ++k)
      chains.hidden().data()[k] = stream.uniform() < share_of_ones ? 1.0 : 0.0;
    const VectorD expected = rbm.energy(chains.visible(), chains.hidden());
    // |E| ≤ 40·30·|W| + 70·|bias|, a few thousand: 1e-10 is far above double rounding and far below any wrong term.
    EXPECT_LE((chains.energies(rbm) - expected).cwiseAbs().maxCoeff(), 1e-10) << share_of_ones;
  }
}

// Drawing a layer from probabilities already at hand (the positive phase's p(h | v), from which CD's chains start)
// gives exactly the draws of a Gibbs update from the inputs they are σ of, whole vectors of rows and a remainder
// alike; and a layer of another shape is refused.
TEST(BatchedChains, DrawingFromProbabilitiesIsTheGibbsUpdateOfTheirInputs) {
  const Rbm rbm = testing::tied_rbm();
  MatrixD visible(13, 3);
  RandomStream stream(11, 0, StreamDomain::initialisation);
  for (Eigen::Index k = 0; k < visible.size(); ++k) visible.data()[k] = stream.uniform() < 0.5 ? 1.0 : 0.0;
  const MatrixD inputs = rbm.hidden_inputs(visible);
  BatchedChains<double> from_inputs(13, 3, 2, kSeed), from_probabilities(13, 3, 2, kSeed);
  for (int draw = 0; draw < 20; ++draw) {
    from_inputs.sample_from_inputs(Layer::hidden, inputs, GibbsRule{});
    from_probabilities.draw_from_probabilities(Layer::hidden, rbm.hidden_probabilities(visible));
    ASSERT_EQ(from_inputs.hidden(), from_probabilities.hidden()) << "draw " << draw;
  }
  EXPECT_THROW(from_probabilities.draw_from_probabilities(Layer::visible, MatrixD::Constant(13, 2, 0.5)), InputError);
}

}  // namespace
}  // namespace rbmix
