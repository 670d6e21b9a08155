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
  const EnergyTraceRequest request{FlipTheStateRule{}, 50, 3, 5, 9, false};
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
  const MatrixD traces = sample_energy_traces(rbm, {GibbsRule{}, 200, 2, 0, 3, true});
  const double largest_magnitude = rbm.weights.cwiseAbs().sum();
  EXPECT_LE(traces.cwiseAbs().maxCoeff(), largest_magnitude + 1e-6);
}

TEST(RandomStartEnergyTraces, RefusesTooFewChainsOrSteps) {
  EXPECT_THROW(sample_energy_traces(small_rbm(), {GibbsRule{}, 1, 1, 0, 1, false}), InputError);
  EXPECT_THROW(sample_energy_traces(small_rbm(), {GibbsRule{}, 10, 0, 0, 1, false}), InputError);
}

}  // namespace
}  // namespace rbmix::experiments
