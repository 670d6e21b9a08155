#include "rbmix/sampling/batched_chains.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <type_traits>

#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "support/chi_squared.hpp"

namespace rbmix {
namespace {

using testing::chi_squared_p_value;

// The loop docs/design.md §1 promises: the batched sampler's empirical one-step transitions from a state must match the
// exact row of K built from the same unit rule. One χ² test per (operator, start state); the whole family is
// Bonferroni-corrected so that a correct sampler fails it with probability ≤ kFalseFailureRate.
constexpr double kFalseFailureRate = 1e-6;
constexpr Eigen::Index kChainsPerRow = 20000;
constexpr std::uint64_t kSeed = 20240611;

// Counts of next joint states after one sweep, per start state: kChainsPerRow chains start at each joint state
// (visible and hidden set), all in one batch, each chain with its own stream; the chains run in Scalar.
template <typename Scalar>
std::vector<std::vector<std::uint64_t>> one_step_counts(const Rbm& rbm, const UnitRule& rule, double beta,
                                                        std::uint64_t first_stream) {
  const analysis::JointStateSpace space(rbm);
  const auto starts = static_cast<Eigen::Index>(space.size());
  BatchedChains<Scalar> chains(starts * kChainsPerRow, rbm.n_visible(), rbm.n_hidden(), kSeed, first_stream);
  for (Eigen::Index start = 0; start < starts; ++start) {
    const auto state = static_cast<std::uint64_t>(start);
    chains.visible().middleRows(start * kChainsPerRow, kChainsPerRow).rowwise() =
        analysis::JointStateSpace::bits(space.visible_part(state), space.n_visible())
            .transpose()
            .template cast<Scalar>();
    chains.hidden().middleRows(start * kChainsPerRow, kChainsPerRow).rowwise() =
        analysis::JointStateSpace::bits(space.hidden_part(state), space.n_hidden()).transpose().template cast<Scalar>();
  }
  chains.sweep(rbm.cast<Scalar>(), rule, static_cast<Scalar>(beta));
  std::vector<std::vector<std::uint64_t>> counts(space.size(), std::vector<std::uint64_t>(space.size(), 0));
  for (Eigen::Index b = 0; b < chains.chains(); ++b) {
    std::uint64_t v = 0, h = 0;
    for (int j = 0; j < space.n_visible(); ++j) v |= static_cast<std::uint64_t>(chains.visible()(b, j)) << j;
    for (int i = 0; i < space.n_hidden(); ++i) h |= static_cast<std::uint64_t>(chains.hidden()(b, i)) << i;
    ++counts[static_cast<std::size_t>(b / kChainsPerRow)][space.index(v, h)];
  }
  return counts;
}

// A 3 + 2 RBM with moderate weights and one exact tie (hidden unit 1 has input 0 at v = 0).
Rbm test_rbm() {
  Rbm rbm(3, 2);
  rbm.weights << 1.2, -0.7, 0.4, -1.5, 0.9, 1.1;
  rbm.visible_bias << 0.3, -0.2, 0.0;
  rbm.hidden_bias << -0.4, 0.0;
  return rbm;
}

struct OperatorCase {
  std::string rule;
  double beta;
};
const std::vector<OperatorCase> kOperators{{"gibbs", 1.0}, {"flip", 1.0}, {"mix:0.5", 1.0},          {"naive", 1.0},
                                           {"gibbs", 0.5}, {"flip", 0.5}, {"unit-modified:0.6", 1.0}};

using Counts = std::vector<std::vector<std::vector<std::uint64_t>>>;  // [operator][start][next]

// The sampler's counts for every operator, drawn once per precision (fixed seed, disjoint streams per operator and
// precision).
template <typename Scalar>
const Counts& sampled_counts() {
  static const auto counts = [] {
    Counts all;
    const auto chains = static_cast<std::uint64_t>(kChainsPerRow) * analysis::JointStateSpace(test_rbm()).size();
    const std::uint64_t first = std::is_same_v<Scalar, double> ? 0 : kOperators.size() * chains;
    for (std::size_t k = 0; k < kOperators.size(); ++k)
      all.push_back(one_step_counts<Scalar>(test_rbm(), parse_unit_rule(kOperators[k].rule), kOperators[k].beta,
                                            first + k * chains));
    return all;
  }();
  return counts;
}

// The smallest p-value over every (operator, start state) of the sampler's counts against the exact rows of
// `expected_rule` (the sampled rule itself, or a wrong one for the negative test).
double smallest_p_value(const std::function<std::string(const OperatorCase&)>& expected_rule,
                        const Counts& counts = sampled_counts<double>()) {
  const Rbm rbm = test_rbm();
  double smallest = 1.0;
  for (std::size_t k = 0; k < kOperators.size(); ++k) {
    const MatrixD exact =
        analysis::sweep_transition_matrix(rbm, parse_unit_rule(expected_rule(kOperators[k])), kOperators[k].beta);
    for (Eigen::Index start = 0; start < exact.rows(); ++start)
      smallest = std::min(
          smallest, chi_squared_p_value(counts[k][static_cast<std::size_t>(start)], exact.row(start).transpose()));
  }
  return smallest;
}

// Both precisions' families together fail with probability ≤ kFalseFailureRate.
double bonferroni_threshold() {
  const auto rows = static_cast<double>(2 * kOperators.size() * analysis::JointStateSpace(test_rbm()).size());
  return kFalseFailureRate / rows;
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

TEST(ChiSquared, ObservationInAnImpossibleBinGivesZero) {
  VectorD probabilities(3);
  probabilities << 0.5, 0.5, 0.0;
  EXPECT_EQ(chi_squared_p_value({50, 49, 1}, probabilities), 0.0);
  EXPECT_GT(chi_squared_p_value({50, 50, 0}, probabilities), 0.9);
}

}  // namespace
}  // namespace rbmix
