#include "rbmix/sampling/modified_sweep_chains.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <type_traits>

#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/verify/chi_squared.hpp"
#include "support/tied_rbm.hpp"

namespace rbmix {
namespace {

using verify::chi_squared_p_value;

// The modified sweep A′ = (A − λI)/(1 − λ) sampled by rejection must match the exact rows of
// analysis::modified_matrix: one χ² test per (case, start state, precision), Bonferroni-corrected so that a correct
// sampler fails the family with probability ≤ kFalseFailureRate.
constexpr double kFalseFailureRate = 1e-6;
constexpr Eigen::Index kChainsPerRow = 20000;
constexpr std::uint64_t kSeed = 20261123;

// A 2 + 2 RBM with small parameters: its sweeps stay put often, so λ is large and the repeats matter.
Rbm weak_rbm() {
  Rbm rbm(2, 2);
  rbm.weights << 0.3, -0.2, 0.1, 0.25;
  rbm.visible_bias << 0.1, -0.05;
  rbm.hidden_bias << 0.0, 0.2;
  return rbm;
}

// 1 + 1 units, W = 0 and b = 0.5: the Gibbs sweep stays with σ(b)/2 or (1 − σ(b))/2, so λ ≈ 0.19 and states
// above λ stay with A′(s, s) ≈ 0.15; keeping returns with the wrong probability (A(s, s) − λ)/(A(s, s)(1 − λ))
// would give ≈ 0.18, which these counts tell apart by about 12 standard deviations.
Rbm lazy_rbm() {
  Rbm rbm(1, 1);
  rbm.visible_bias << 0.5;
  return rbm;
}

struct ModifiedCase {
  Rbm rbm;
  std::string rule;
  double beta;
};
// The zero model under Gibbs: every state stays with 2^{−4} = λ, so A′ never stays (exact zeros on the diagonal).
const std::vector<ModifiedCase> kCases{{testing::tied_rbm(), "gibbs", 1.0}, {testing::tied_rbm(), "flip", 1.0},
                                       {weak_rbm(), "gibbs", 1.0},          {weak_rbm(), "unit-modified:0.5", 0.5},
                                       {Rbm(2, 2), "gibbs", 1.0},           {lazy_rbm(), "gibbs", 1.0}};

VectorD exact_diagonal(const ModifiedCase& c) {
  return analysis::sweep_transition_matrix(c.rbm, parse_unit_rule(c.rule), c.beta).diagonal();
}

MatrixD exact_modified_rows(const ModifiedCase& c) {
  const MatrixD sweep = analysis::sweep_transition_matrix(c.rbm, parse_unit_rule(c.rule), c.beta);
  return analysis::modified_matrix(sweep, sweep.diagonal().minCoeff());
}

using Counts = std::vector<std::vector<std::uint64_t>>;  // [start][next]

// kChainsPerRow chains start at each joint state, all in one batch with disjoint streams, and take one step of A′.
template <typename Scalar>
Counts one_step_counts(const ModifiedCase& c, std::uint64_t first_stream) {
  const analysis::JointStateSpace space(c.rbm);
  const auto starts = static_cast<Eigen::Index>(space.size());
  ModifiedSweepChains<Scalar> chains(c.rbm.cast<Scalar>(), parse_unit_rule(c.rule), exact_diagonal(c),
                                     starts * kChainsPerRow, kSeed, first_stream, static_cast<Scalar>(c.beta));
  for (Eigen::Index start = 0; start < starts; ++start) {
    const auto state = static_cast<std::uint64_t>(start);
    chains.visible().middleRows(start * kChainsPerRow, kChainsPerRow).rowwise() =
        analysis::JointStateSpace::bits(space.visible_part(state), space.n_visible())
            .transpose()
            .template cast<Scalar>();
    chains.hidden().middleRows(start * kChainsPerRow, kChainsPerRow).rowwise() =
        analysis::JointStateSpace::bits(space.hidden_part(state), space.n_hidden()).transpose().template cast<Scalar>();
  }
  chains.step();
  Counts counts(space.size(), std::vector<std::uint64_t>(space.size(), 0));
  for (Eigen::Index b = 0; b < chains.chains(); ++b)
    ++counts[static_cast<std::size_t>(b / kChainsPerRow)][chains.state_index(b)];
  return counts;
}

// Counts of every case, drawn once per precision from disjoint streams.
template <typename Scalar>
const std::vector<Counts>& sampled_counts() {
  static const auto counts = [] {
    std::vector<Counts> all;
    constexpr std::uint64_t kStreamsPerCase = std::uint64_t{1} << 24;
    const std::uint64_t first = std::is_same_v<Scalar, double> ? 0 : kCases.size() * kStreamsPerCase;
    for (std::size_t k = 0; k < kCases.size(); ++k)
      all.push_back(one_step_counts<Scalar>(kCases[k], first + k * kStreamsPerCase));
    return all;
  }();
  return counts;
}

// The smallest p-value of `counts` against rows(case) over every case and start state.
double smallest_p_value(const std::vector<Counts>& counts, MatrixD (*rows)(const ModifiedCase&)) {
  double smallest = 1.0;
  for (std::size_t k = 0; k < kCases.size(); ++k) {
    const MatrixD exact = rows(kCases[k]);
    for (Eigen::Index start = 0; start < exact.rows(); ++start)
      smallest = std::min(
          smallest, chi_squared_p_value(counts[k][static_cast<std::size_t>(start)], exact.row(start).transpose()));
  }
  return smallest;
}

// Both precisions' families together fail with probability ≤ kFalseFailureRate.
double bonferroni_threshold() {
  double rows = 0.0;
  for (const ModifiedCase& c : kCases) rows += 2.0 * static_cast<double>(analysis::JointStateSpace(c.rbm).size());
  return kFalseFailureRate / rows;
}

TEST(ModifiedSweepChains, OneStepMatchesTheExactModifiedRowForEveryCaseAndStart) {
  EXPECT_GT(smallest_p_value(sampled_counts<double>(), exact_modified_rows), bonferroni_threshold());
}

TEST(ModifiedSweepChains, FloatChainsMatchTheExactModifiedRows) {
  EXPECT_GT(smallest_p_value(sampled_counts<float>(), exact_modified_rows), bonferroni_threshold());
}

// Power: the same counts against the unmodified sweep's rows must be rejected (on the zero model the sweep stays
// with 1/16 where A′ never stays, and on the weak model λ is large).
TEST(ModifiedSweepChains, ChiSquaredTellsTheModifiedSweepFromThePlainOne) {
  const auto plain_rows = [](const ModifiedCase& c) {
    return analysis::sweep_transition_matrix(c.rbm, parse_unit_rule(c.rule), c.beta);
  };
  EXPECT_LT(smallest_p_value(sampled_counts<double>(), +plain_rows), bonferroni_threshold());
}

TEST(ModifiedSweepChains, LambdaIsTheSmallestDiagonalEntry) {
  for (const ModifiedCase& c : kCases) {
    const ModifiedSweepChains<double> chains(c.rbm, parse_unit_rule(c.rule), exact_diagonal(c), 1, kSeed, 0, c.beta);
    EXPECT_EQ(chains.lambda(), exact_diagonal(c).minCoeff()) << c.rule;
  }
}

TEST(ModifiedSweepChains, ADiagonalThatDoesNotFitIsAnInputError) {
  const Rbm rbm = weak_rbm();
  const UnitRule gibbs = GibbsRule{};
  EXPECT_THROW(ModifiedSweepChains<double>(rbm, gibbs, VectorD::Constant(8, 0.5), 1, kSeed), InputError);
  EXPECT_THROW(ModifiedSweepChains<double>(rbm, gibbs, VectorD::Constant(16, 1.5), 1, kSeed), InputError);
  // λ = 1: the identity, whose modified matrix is undefined.
  EXPECT_THROW(ModifiedSweepChains<double>(rbm, gibbs, VectorD::Ones(16), 1, kSeed), InputError);
}

}  // namespace
}  // namespace rbmix
