#include "rbmix/experiments/random_start_energy_traces.hpp"

#include <gtest/gtest.h>

#include "rbmix/core/error.hpp"
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

}  // namespace
}  // namespace rbmix::experiments
