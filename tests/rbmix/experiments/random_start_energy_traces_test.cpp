#include "rbmix/experiments/random_start_energy_traces.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "rbmix/core/error.hpp"
#include "rbmix/model/exact.hpp"
#include "rbmix/model/rbm.hpp"

namespace rbmix::experiments {
namespace {

Rbm small_rbm() {
  Rbm rbm(4, 3);
  rbm.weights << 1.0, -0.5, 0.25, 0.0, -1.0, 0.5, 0.75, -0.25, 0.5, 0.5, -0.5, 1.0;
  return rbm;
}

// steps × chains energies, the same for the same seed, other for another seed; each chain's start is its own.
TEST(RandomStartEnergyTraces, OneColumnPerChainDeterminedByTheSeed) {
  const EnergyTraceRequest request{FlipTheStateRule{}, 50, 3, 5, 9, false, {}};
  const MatrixD traces = sample_energy_traces(small_rbm(), request);
  ASSERT_EQ(traces.rows(), 50);
  ASSERT_EQ(traces.cols(), 3);
  EXPECT_EQ(sample_energy_traces(small_rbm(), request), traces);
  EnergyTraceRequest other = request;
  other.seed = 10;
  EXPECT_NE(sample_energy_traces(small_rbm(), other), traces);
  EXPECT_NE(traces.col(0), traces.col(1));
}

// E(v, h) = −bᵀv − cᵀh − hᵀWv lies between the extremes over the 2^7 joint states.
TEST(RandomStartEnergyTraces, EnergiesAreThoseOfJointStates) {
  const Rbm rbm = small_rbm();
  const MatrixD traces = sample_energy_traces(rbm, {GibbsRule{}, 200, 2, 0, 3, true, {}});
  const double largest_magnitude = rbm.weights.cwiseAbs().sum();
  EXPECT_LE(traces.cwiseAbs().maxCoeff(), largest_magnitude + 1e-6);
}

TEST(RandomStartEnergyTraces, RefusesTooFewChainsOrSteps) {
  EXPECT_THROW(sample_energy_traces(small_rbm(), {GibbsRule{}, 1, 1, 0, 1, false, {}}), InputError);
  EXPECT_THROW(sample_energy_traces(small_rbm(), {GibbsRule{}, 10, 0, 0, 1, false, {}}), InputError);
}

// Superchains: the chains of a superchain start from one state. Hidden unit i coupled to visible unit i by 100, the
// biases between −61 and −42: every input is 40 or more from 0, where σ rounds to 0 or 1 in double (a draw differs
// only with probability 2^-53), and a sweep keeps v_i = h_i = the start's v_i. The energy is then fixed by the start
// (−16, −6 and +22 for units 0, 1, 2 on), and chains that start together have one trace.
TEST(RandomStartEnergyTraces, ChainsOfASuperchainShareTheirStart) {
  Rbm rbm(4, 3);
  rbm.weights << 100, 0, 0, 0, 0, 100, 0, 0, 0, 0, 100, 0;
  rbm.visible_bias << -42, -47, -61, -50;
  rbm.hidden_bias << -42, -47, -61;
  EnergyTraceRequest request{GibbsRule{}, 20, 8, 3, 4, false, {}};
  request.superchains = 2;
  const MatrixD traces = sample_energy_traces(rbm, request);
  for (Eigen::Index chain = 1; chain < 4; ++chain) {
    EXPECT_EQ(traces.col(chain), traces.col(0)) << chain;
    EXPECT_EQ(traces.col(4 + chain), traces.col(4)) << chain;
  }
  EXPECT_NE(traces.col(0), traces.col(4));  // the two superchains' starts differ (fixed by the seed)
  request.superchains = 0;
  const MatrixD independent = sample_energy_traces(rbm, request);
  bool some_start_differs = false;
  for (Eigen::Index chain = 1; chain < 8; ++chain) some_start_differs |= independent.col(chain) != independent.col(0);
  EXPECT_TRUE(some_start_differs);
  for (const Eigen::Index superchains : {Eigen::Index{1}, Eigen::Index{3}, Eigen::Index{-2}}) {
    request.superchains = superchains;
    EXPECT_THROW(sample_energy_traces(rbm, request), InputError) << superchains;
  }
}

// The modified sweep (its sampler's rows are checked by χ² in modified_sweep_chains_test): one column per chain,
// fixed by the seed, in both precisions; refused beyond the tiny models whose exact diagonal it needs.
TEST(RandomStartEnergyTraces, ModifiedSweepTracesAreDeterminedByTheSeed) {
  const EnergyTraceRequest request{GibbsRule{}, 40, 2, 3, 9, false, {}};
  const MatrixD traces = sample_modified_sweep_energy_traces(small_rbm(), request);
  ASSERT_EQ(traces.rows(), 40);
  ASSERT_EQ(traces.cols(), 2);
  EXPECT_EQ(sample_modified_sweep_energy_traces(small_rbm(), request), traces);
  EXPECT_LE(traces.cwiseAbs().maxCoeff(), small_rbm().weights.cwiseAbs().sum() + 1e-12);
  EnergyTraceRequest in_float = request;
  in_float.single_precision = true;
  EXPECT_EQ(sample_modified_sweep_energy_traces(small_rbm(), in_float).rows(), 40);
  EXPECT_THROW(sample_modified_sweep_energy_traces(Rbm(12, 10), request), InputError);
  EXPECT_THROW(sample_modified_sweep_energy_traces(small_rbm(), {GibbsRule{}, 1, 1, 0, 1, false, {}}), InputError);
}

// Chains started from exact draws of p(v) are stationary at once, for an operator that moves h from its current value
// too: their mean energy after the first sweep is the exact E_p[E(v, h)] = −bᵀ⟨v⟩ − cᵀ⟨h⟩ − Σ W ⊙ ⟨h vᵀ⟩. With
// 40 000 chains the mean's standard error is about 0.006 here; the band of 4 standard errors fails falsely with
// probability 6e-5. Without the hidden units' draw from p(h | v) (T from h = 0 sets every unit with p(h_i = 1 | v) ≥
// 1/2 to 1), the mean lies 0.25 off (checked by hand, docs/testing.md).
TEST(RandomStartEnergyTraces, ChainsStartedFromTheModelsDistributionAreStationary) {
  const Rbm rbm = small_rbm();
  MatrixD states(16, 4);
  for (Eigen::Index state = 0; state < 16; ++state)
    for (Eigen::Index unit = 0; unit < 4; ++unit) states(state, unit) = static_cast<double>((state >> unit) & 1);
  const VectorD probabilities = exact_log_probability(rbm, states, exact_log_partition(rbm)).array().exp();
  std::mt19937_64 engine(17);
  std::discrete_distribution<int> draw(probabilities.data(), probabilities.data() + probabilities.size());
  const Eigen::Index chains = 40000;
  EnergyTraceRequest request{FlipTheStateRule{}, 2, chains, 0, 5, false, {}};
  request.start_visible.resize(chains, 4);
  for (Eigen::Index chain = 0; chain < chains; ++chain) request.start_visible.row(chain) = states.row(draw(engine));
  const Statistics exact = exact_model_statistics(rbm);
  const double exact_mean = -rbm.visible_bias.dot(exact.visible) - rbm.hidden_bias.dot(exact.hidden) -
                            (rbm.weights.array() * exact.hidden_visible.array()).sum();
  const VectorD first_sweep = sample_energy_traces(rbm, request).row(0).transpose();
  const double mean = first_sweep.mean();
  const double standard_error =
      std::sqrt((first_sweep.array() - mean).square().sum() / static_cast<double>(chains - 1) /
                static_cast<double>(chains));
  EXPECT_NEAR(mean, exact_mean, 4.0 * standard_error);
}

// Start states that do not fit are refused naming the start states and what is wrong (deeper checks would refuse
// some of them too, but as a product's or a stream's shape).
TEST(RandomStartEnergyTraces, RefusesStartStatesThatDoNotFit) {
  const auto refusal = [](const EnergyTraceRequest& request) -> std::string {
    try {
      sample_energy_traces(small_rbm(), request);
    } catch (const InputError& error) {
      return error.what();
    }
    return "accepted";
  };
  EnergyTraceRequest request{GibbsRule{}, 10, 2, 0, 1, false, {}};
  request.start_visible = MatrixD::Zero(2, 4);
  EXPECT_EQ(sample_energy_traces(small_rbm(), request).cols(), 2);
  request.start_visible = MatrixD::Zero(3, 4);  // a row per chain
  EXPECT_THAT(refusal(request), testing::HasSubstr("the start states are 3 × 4; 2 chains of a model with 4 visible"));
  request.start_visible = MatrixD::Zero(2, 5);  // the model's visible units
  EXPECT_THAT(refusal(request), testing::HasSubstr("the start states are 2 × 5"));
  request.start_visible = MatrixD::Constant(2, 4, 0.5);  // binary states
  EXPECT_THAT(refusal(request), testing::HasSubstr("the start states must be 0/1"));
  request.start_visible = MatrixD::Zero(2, 4);
  request.superchains = 2;  // superchains draw their own starts
  EXPECT_THAT(refusal(request), testing::HasSubstr("--superchains draws its own shared starts"));
}

}  // namespace
}  // namespace rbmix::experiments
