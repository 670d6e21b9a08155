#include "rbmix/verify/sampled_transitions.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "rbmix/random/random_stream.hpp"
#include "rbmix/verify/gtest_adapter.hpp"
#include "support/user_rules.hpp"

namespace rbmix::verify {
namespace {

// Fewer chains than the project's own χ² test (batched_chains_test) keep these quick; the power tests below show
// they still reject an order error. Each check below fails a correct sampler with probability ≤ 1e-6 (the
// default TransitionTestOptions::false_failure_rate, Bonferroni over its start states); the seeds are fixed.
constexpr Eigen::Index kChainsPerStart = 4000;

// A 2 + 2 RBM whose layer order matters and with an exact tie (hidden unit 1 at v = 0).
Rbm test_rbm() {
  Rbm rbm(2, 2);
  rbm.weights << 1.5, -1.0, 2.0, 0.5;
  rbm.visible_bias << -0.5, 0.3;
  rbm.hidden_bias << 0.2, 0.0;
  return rbm;
}

using testing::LazyGibbsRule;

// A Gibbs sweep written by hand, as a user's own sampler would be: hidden given v, then visible given the new h
// (K = K_h K_v), or, wrongly, the visible layer first.
struct HandWrittenGibbsSweep {
  Rbm rbm;
  bool visible_first = false;
  RandomStream stream{2024, 0};
  void resample(MatrixD& layer, const MatrixD& inputs) {
    for (Eigen::Index b = 0; b < layer.rows(); ++b)
      for (Eigen::Index k = 0; k < layer.cols(); ++k)
        layer(b, k) = stream.uniform() < 1.0 / (1.0 + std::exp(-inputs(b, k))) ? 1.0 : 0.0;
  }
  void operator()(MatrixD& visible, MatrixD& hidden) {
    const auto update_hidden = [&] {
      resample(hidden, (visible * rbm.weights.transpose()).rowwise() + rbm.hidden_bias.transpose());
    };
    const auto update_visible = [&] {
      resample(visible, (hidden * rbm.weights).rowwise() + rbm.visible_bias.transpose());
    };
    if (visible_first) {
      update_visible();
      update_hidden();
    } else {
      update_hidden();
      update_visible();
    }
  }
};

TransitionTestOptions quick_options() {
  TransitionTestOptions options;
  options.chains_per_start = kChainsPerStart;
  return options;
}

TEST(SampledTransitions, BatchedChainsRunAUserRuleExactly) {
  RBMIX_EXPECT_VERIFIED(check_sampled_transitions(test_rbm(), LazyGibbsRule{}, quick_options()));
}

TEST(SampledTransitions, AUserSamplerInTheRightOrderPasses) {
  RBMIX_EXPECT_VERIFIED(
      check_sampler_transitions(test_rbm(), GibbsRule{}, HandWrittenGibbsSweep{test_rbm()}, quick_options()));
}

// Power: the same sampler with its layers in the wrong order is a different operator, and the χ² test says which
// start state shows it.
TEST(SampledTransitions, AUserSamplerInTheWrongOrderIsRejected) {
  const VerificationResult result =
      check_sampler_transitions(test_rbm(), GibbsRule{}, HandWrittenGibbsSweep{test_rbm(), true}, quick_options());
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.message.find("the sampled transitions disagree with the exact row"), std::string::npos)
      << result.message;
}

TEST(SampledTransitions, AnObservedImpossibleTransitionFailsWhateverTheThreshold) {
  MatrixD exact(2, 2);
  exact << 1.0, 0.0, 0.5, 0.5;
  const TransitionCounts counts{{99, 1}, {50, 50}};
  const VerificationResult result = check_transition_counts(counts, exact, 1e-12);
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.message.find("next state 1 was reached 1 times where 0 were expected"), std::string::npos)
      << result.message;
}

// The stated false-failure rate holds for the family only when each test gets its share of it.
// A user's sampler gets whole start states in blocks of at most max_chains_per_sampler_call chains, and the counts
// are those of one call over every start state: here a step that leaves every chain where it is, so all of start
// x's chains are counted at x.
TEST(SampledTransitions, AUserSamplerIsCalledOnBoundedBlocksOfWholeStartStates) {
  const Rbm rbm(5, 5);  // 1 024 joint states
  const Eigen::Index chains_per_start = 300;  // 307 200 chains in all: more than one block
  std::vector<Eigen::Index> rows_per_call;
  const TransitionCounts counts =
      sampler_transition_counts(rbm, chains_per_start, [&](MatrixD& visible, MatrixD&) {
        rows_per_call.push_back(visible.rows());
      });
  ASSERT_GE(rows_per_call.size(), 2u);
  for (const Eigen::Index rows : rows_per_call) {
    EXPECT_LE(rows, max_chains_per_sampler_call);
    EXPECT_EQ(rows % chains_per_start, 0);
  }
  for (std::size_t x = 0; x < counts.size(); ++x)
    ASSERT_EQ(counts[x][x], static_cast<std::uint64_t>(chains_per_start)) << x;
}

TEST(SampledTransitions, BonferroniSharesTheRateAmongTheTests) {
  EXPECT_DOUBLE_EQ(bonferroni_threshold(1e-6, 64), 1e-6 / 64.0);
  EXPECT_DOUBLE_EQ(bonferroni_threshold(0.05, 1), 0.05);
  MatrixD exact(2, 2);
  exact << 0.5, 0.5, 0.5, 0.5;
  const TransitionCounts counts{{50, 50}, {50, 50}};
  EXPECT_NE(check_transition_counts(counts, exact, 1e-6, 8).message.find("against the threshold 1.25e-07"),
            std::string::npos);
}

}  // namespace
}  // namespace rbmix::verify
