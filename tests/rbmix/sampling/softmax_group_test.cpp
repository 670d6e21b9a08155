#include "rbmix/sampling/softmax_group.hpp"

#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "rbmix/analysis/softmax_group_transition_matrix.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/verify/chi_squared.hpp"

namespace rbmix {
namespace {

// The classification RBM's sweep (the rule on the binary units, the group drawn from p(y | h)) against exact rows
// of K from the exact builder: one χ² test per (operator, one-hot start state, precision), Bonferroni-corrected so
// that a correct sampler fails the family with probability ≤ kFalseFailureRate.
constexpr double kFalseFailureRate = 1e-6;
constexpr Eigen::Index kChainsPerRow = 20000;
constexpr std::uint64_t kSeed = 19860601;
const SoftmaxGroup kGroup{2, 3};  // visible units 0, 1 binary; 2, 3, 4 the label group

// 2 binary visible units, a 3-way group and 2 hidden units; one exact tie (hidden unit 1 has input 0 at v = 0).
Rbm test_rbm() {
  Rbm rbm(5, 2);
  rbm.weights << 1.2, -0.7, 0.4, -1.1, 0.6, -1.5, 0.9, 1.1, 0.2, -0.8;
  rbm.visible_bias << 0.3, -0.2, 0.5, 0.0, -0.4;
  rbm.hidden_bias << -0.4, 0.0;
  return rbm;
}

struct OperatorCase {
  std::string rule;
  double beta;
};
const std::vector<OperatorCase> kOperators{{"gibbs", 1.0}, {"flip", 1.0}, {"mix:0.3", 1.0}, {"flip", 0.5}};

bool group_is_one_hot(std::uint64_t visible) {
  const std::uint64_t block = (visible >> kGroup.first_unit) & 7U;
  return block == 1 || block == 2 || block == 4;
}

// The one-hot joint states (the others are transient and never sampled from).
std::vector<std::uint64_t> one_hot_states(const analysis::JointStateSpace& space) {
  std::vector<std::uint64_t> states;
  for (std::uint64_t x = 0; x < space.size(); ++x)
    if (group_is_one_hot(space.visible_part(x))) states.push_back(x);
  return states;
}

// Counts of next joint states after one sweep from each one-hot start, kChainsPerRow chains per start in one batch.
template <typename Scalar>
std::vector<std::vector<std::uint64_t>> one_step_counts(const OperatorCase& op, std::uint64_t first_stream) {
  const Rbm rbm = test_rbm();
  const analysis::JointStateSpace space(rbm);
  const std::vector<std::uint64_t> starts = one_hot_states(space);
  const auto start_count = static_cast<Eigen::Index>(starts.size());
  BatchedChains<Scalar> chains(start_count * kChainsPerRow, rbm.n_visible(), rbm.n_hidden(), kSeed, first_stream);
  for (Eigen::Index s = 0; s < start_count; ++s) {
    const std::uint64_t state = starts[static_cast<std::size_t>(s)];
    chains.visible().middleRows(s * kChainsPerRow, kChainsPerRow).rowwise() =
        analysis::JointStateSpace::bits(space.visible_part(state), space.n_visible())
            .transpose()
            .template cast<Scalar>();
    chains.hidden().middleRows(s * kChainsPerRow, kChainsPerRow).rowwise() =
        analysis::JointStateSpace::bits(space.hidden_part(state), space.n_hidden()).transpose().template cast<Scalar>();
  }
  sweep_with_softmax_group(chains, rbm.cast<Scalar>(), parse_unit_rule(op.rule), kGroup, static_cast<Scalar>(op.beta));
  std::vector<std::vector<std::uint64_t>> counts(starts.size(), std::vector<std::uint64_t>(space.size(), 0));
  for (Eigen::Index b = 0; b < chains.chains(); ++b) {
    std::uint64_t v = 0, h = 0;
    for (int j = 0; j < space.n_visible(); ++j) v |= static_cast<std::uint64_t>(chains.visible()(b, j)) << j;
    for (int i = 0; i < space.n_hidden(); ++i) h |= static_cast<std::uint64_t>(chains.hidden()(b, i)) << i;
    ++counts[static_cast<std::size_t>(b / kChainsPerRow)][space.index(v, h)];
  }
  return counts;
}

using Counts = std::vector<std::vector<std::vector<std::uint64_t>>>;  // [operator][start][next]

template <typename Scalar>
const Counts& sampled_counts() {
  static const Counts counts = [] {
    Counts all;
    const auto chains = static_cast<std::uint64_t>(kChainsPerRow) * 1024;  // more streams than any case uses
    const std::uint64_t first = std::is_same_v<Scalar, double> ? 0 : kOperators.size() * chains;
    for (std::size_t k = 0; k < kOperators.size(); ++k)
      all.push_back(one_step_counts<Scalar>(kOperators[k], first + k * chains));
    return all;
  }();
  return counts;
}

// The smallest p-value of the counts against the exact rows of `model`'s sweep.
double smallest_p_value(const Counts& counts, const Rbm& model) {
  const analysis::JointStateSpace space(model);
  const std::vector<std::uint64_t> starts = one_hot_states(space);
  double smallest = 1.0;
  for (std::size_t k = 0; k < kOperators.size(); ++k) {
    const MatrixD exact = analysis::softmax_group_sweep_transition_matrix(
        model, kGroup, parse_unit_rule(kOperators[k].rule), kOperators[k].beta);
    for (std::size_t s = 0; s < starts.size(); ++s)
      smallest = std::min(smallest, verify::chi_squared_p_value(
                                        counts[k][s], exact.row(static_cast<Eigen::Index>(starts[s])).transpose()));
  }
  return smallest;
}

// Both precisions' families together fail with probability ≤ kFalseFailureRate.
double bonferroni_threshold() {
  const auto rows =
      static_cast<double>(2 * kOperators.size() * one_hot_states(analysis::JointStateSpace(test_rbm())).size());
  return kFalseFailureRate / rows;
}

TEST(SoftmaxGroup, OneSweepMatchesTheExactRowsForEveryOperatorAndStart) {
  EXPECT_GT(smallest_p_value(sampled_counts<double>(), test_rbm()), bonferroni_threshold());
}

TEST(SoftmaxGroup, FloatChainsMatchTheExactRows) {
  EXPECT_GT(smallest_p_value(sampled_counts<float>(), test_rbm()), bonferroni_threshold());
}

// Power: the same counts against the rows of a model whose label biases differ by 0.15 must be rejected.
TEST(SoftmaxGroup, ChiSquaredRejectsSlightlyWrongLabelProbabilities) {
  Rbm wrong = test_rbm();
  wrong.visible_bias[kGroup.first_unit] += 0.15;
  wrong.visible_bias[kGroup.first_unit + 1] -= 0.15;
  EXPECT_LT(smallest_p_value(sampled_counts<double>(), wrong), bonferroni_threshold());
}

TEST(SoftmaxGroup, ProbabilitiesAreTheSoftmaxOfTheGroupInputs) {
  const Rbm rbm = test_rbm();
  const MatrixD hidden = (MatrixD(2, 2) << 0, 1, 1, 1).finished();
  MatrixD visible = MatrixD::Constant(2, 5, 0.5);
  softmax_group_probabilities(rbm, kGroup, hidden, visible);
  for (Eigen::Index row = 0; row < 2; ++row) {
    const Eigen::RowVectorXd inputs =
        hidden.row(row) * rbm.weights.middleCols(2, 3) + rbm.visible_bias.segment(2, 3).transpose();
    const Eigen::RowVectorXd expected = inputs.array().exp() / inputs.array().exp().sum();
    EXPECT_LT((visible.row(row).tail(3) - expected).cwiseAbs().maxCoeff(), 1e-15);
    EXPECT_EQ(visible.row(row).head(2), Eigen::RowVector2d(0.5, 0.5));  // the binary units are left alone
  }
}

TEST(SoftmaxGroup, RefusesAGroupOutsideTheLayerOrMismatchedStates) {
  const Rbm rbm = test_rbm();
  BatchedChains<double> chains(4, 5, 2, kSeed);
  EXPECT_THROW(sweep_with_softmax_group(chains, rbm, GibbsRule{}, SoftmaxGroup{4, 2}), InputError);
  EXPECT_THROW(sweep_with_softmax_group(chains, rbm, GibbsRule{}, SoftmaxGroup{0, 1}), InputError);
  MatrixD visible = MatrixD::Zero(3, 5);
  const MatrixD hidden = MatrixD::Zero(2, 2);
  EXPECT_THROW(softmax_group_probabilities(rbm, kGroup, hidden, visible), InputError);
}

}  // namespace
}  // namespace rbmix
