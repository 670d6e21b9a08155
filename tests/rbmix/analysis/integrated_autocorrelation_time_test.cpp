#include "rbmix/analysis/integrated_autocorrelation_time.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "rbmix/analysis/exact_autocorrelation_time.hpp"
#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/sampling/energy_trace.hpp"
#include "support/autoregressive_series.hpp"
#include "support/test_names.hpp"

namespace rbmix::analysis {
namespace {

constexpr Eigen::Index chains = 32;
constexpr Eigen::Index steps = Eigen::Index{1} << 17;

// Sokal's relative standard deviation of a windowed τ̂ with window M = c τ over N samples: sqrt(2(2M+1)/N).
// The adaptive-window and Geyer estimators sum at most ≈ cτ lags, the AR(1) fit is far more precise
// (sd/τ = 2/sqrt((1−φ²)N)), so each estimate lies within 5 such deviations of τ unless a ≥ 5σ event happens:
// p < 6e-7 per check, < 1e-5 for the 9 checks (normal approximation, valid as N ≫ M). The truncation bias of
// the windows, 2φ^M/(1−φ) ≤ 0.01 τ for M ≥ 5τ_exp, is covered by the extra 1 %.
double allowed_relative_error(double time, Eigen::Index samples) {
  const double window = default_window_factor * time;
  return 5.0 * std::sqrt(2.0 * (2.0 * window + 1.0) / static_cast<double>(samples)) + 0.01;
}

class Ar1Series : public ::testing::TestWithParam<double> {};

TEST_P(Ar1Series, EveryEstimatorFindsTheExactTime) {
  const double coefficient = GetParam();
  const double exact = testing::autoregressive_integrated_time_exact(coefficient);
  const MatrixD traces = testing::autoregressive_series(coefficient, steps, chains, 2024);
  for (const IntegratedTimeEstimate& estimate : integrated_autocorrelation_times(traces)) {
    SCOPED_TRACE(estimate.method);
    EXPECT_NEAR(estimate.time / exact, 1.0, allowed_relative_error(exact, chains * steps));
    EXPECT_TRUE(estimate.trusted) << estimate.warning;
  }
}

INSTANTIATE_TEST_SUITE_P(Coefficients, Ar1Series, ::testing::Values(0.5, 0.9, 0.99),
                         [](const auto& info) { return testing::test_name("phi_" + std::to_string(info.param)); });

// A 3×3 RBM with two modes (all units off; all on, lower in energy) separated by a barrier, so that mode
// switches show in the energy: exact τ is 7.1 sweeps for Gibbs and 5.2 for flip-the-state.
Rbm bimodal_model() {
  Rbm rbm(3, 3);
  rbm.weights.setConstant(2.5);
  rbm.weights(0, 1) = 2.0;
  rbm.weights(2, 0) = 2.25;
  rbm.visible_bias << -4.0, -3.7, -4.0;
  rbm.hidden_bias.setConstant(-4.0);
  return rbm;
}

class EnergyOfATinyRbm : public ::testing::TestWithParam<const char*> {};

TEST_P(EnergyOfATinyRbm, EveryEstimatorFindsTheExactTimeOfTheSweep) {
  // Ground truth: τ of f = E(v, h) under the exact sweep matrix K = K_h K_v of the same unit rule
  // (exact_autocorrelation_time.hpp). The chains start uniformly and run 1000 sweeps first; with a SLEM well
  // below 0.99 that leaves them stationary to far better than the tolerance.
  const Rbm rbm = bimodal_model();
  const UnitRule rule = parse_unit_rule(GetParam());
  const analysis::JointStateSpace space(rbm);
  const double exact = analysis::exact_integrated_autocorrelation_time(
      analysis::sweep_transition_matrix(rbm, rule), space.stationary_distribution(rbm), space.energies(rbm));
  ASSERT_GT(exact, 4.0);

  BatchedChains<double> sampler(chains, 3, 3, 77);
  const MatrixD uniform_inputs = MatrixD::Zero(chains, 3);
  sample_layer(GibbsRule{}, uniform_inputs, sampler.visible(), sampler.streams());
  constexpr Eigen::Index sweeps = Eigen::Index{1} << 15;
  const MatrixD traces = record_energy_trace(sampler, rbm, rule, sweeps, 1000);
  for (const IntegratedTimeEstimate& estimate : integrated_autocorrelation_times(traces)) {
    SCOPED_TRACE(estimate.method);
    EXPECT_NEAR(estimate.time / exact, 1.0, allowed_relative_error(exact, chains * sweeps)) << "exact τ " << exact;
    EXPECT_TRUE(estimate.trusted) << estimate.warning;
  }
}

INSTANTIATE_TEST_SUITE_P(Operators, EnergyOfATinyRbm, ::testing::Values("gibbs", "flip"),
                         [](const auto& info) { return std::string(info.param); });

TEST(AutoregressiveIntegratedTime, FindsOrderOneAndABandOfTheAsymptoticWidth) {
  // For AR(1) the delta method gives sd(τ̂)/τ = 2/sqrt((1−φ²)N); the computed band must have that half width
  // (1.96 sd) up to the sampling error of φ̂ in the formula and the extra near-zero coefficients AIC may add
  // (it overfits by one or two orders with probability ≈ 0.3): within 25 %.
  constexpr double coefficient = 0.9;
  const MatrixD traces = testing::autoregressive_series(coefficient, steps, chains, 7);
  const IntegratedTimeEstimate estimate = autoregressive_integrated_time(trace_autocovariance(traces));
  EXPECT_LE(estimate.cutoff, 3);
  const double expected_half_width = 1.959963984540054 * estimate.time * 2.0 /
                                     std::sqrt((1.0 - coefficient * coefficient) * static_cast<double>(chains * steps));
  EXPECT_NEAR((estimate.upper - estimate.lower) / 2.0 / expected_half_width, 1.0, 0.25);
  EXPECT_LT(estimate.lower, estimate.time);
}

TEST(AdaptiveWindowIntegratedTime, ChoosesTheFirstSelfConsistentWindow) {
  const MatrixD traces = testing::autoregressive_series(0.9, steps, 4, 3);
  const IntegratedTimeEstimate estimate = adaptive_window_integrated_time(trace_autocovariance(traces));
  EXPECT_GE(static_cast<double>(estimate.cutoff), default_window_factor * estimate.time);
  EXPECT_LT(static_cast<double>(estimate.cutoff - 1), default_window_factor * (estimate.time + 2.0));
  EXPECT_THROW(adaptive_window_integrated_time(trace_autocovariance(traces), 0.0), InputError);
}

TEST(InitialMonotoneSequenceIntegratedTime, HandlesAntitheticChains) {
  // φ = −0.5: the pairs ρ_{2k} + ρ_{2k+1} = φ^{2k}(1 + φ) stay positive, and τ = (1+φ)/(1−φ) = 1/3 < 1.
  // Over 10 other seeds the initial-sequence estimate had relative sd 0.0046 and no bias; 3 % is 6.5 sd
  // (p < 1e-9, normal tail). The AR(1) fit is more precise still.
  const MatrixD traces = testing::autoregressive_series(-0.5, steps, chains, 5);
  const double exact = testing::autoregressive_integrated_time_exact(-0.5);
  EXPECT_NEAR(initial_monotone_sequence_integrated_time(trace_autocovariance(traces)).time / exact, 1.0, 0.03);
  EXPECT_NEAR(autoregressive_integrated_time(trace_autocovariance(traces)).time / exact, 1.0, 0.03);
}

TEST(AdaptiveWindowIntegratedTime, DistrustsANegativeSumOfAStronglyAntitheticChain) {
  // φ = −0.9: τ̂(1) = 1 + 2ρ(1) ≈ −0.8, and 1 ≥ c τ̂(1) stops the window there; τ = 0.1/1.9 in truth.
  const MatrixD traces = testing::autoregressive_series(-0.9, 1 << 14, 4, 13);
  const IntegratedTimeEstimate window = adaptive_window_integrated_time(trace_autocovariance(traces));
  EXPECT_LT(window.time, 0.0);
  EXPECT_FALSE(window.trusted);
  // τ̂ = 2 Σ Γ_k − 1 ≈ 2·0.526 − 1 cancels heavily, so the initial-sequence estimate is poor in relative terms
  // (over 40 other seeds: relative bias −0.29, sd 0.25) but stays positive and close in absolute terms (sd 0.013,
  // worst 0.046): 0.1 is 7 sd.
  const double exact = testing::autoregressive_integrated_time_exact(-0.9);
  const IntegratedTimeEstimate sequence = initial_monotone_sequence_integrated_time(trace_autocovariance(traces));
  EXPECT_GT(sequence.time, 0.0);
  EXPECT_NEAR(sequence.time, exact, 0.1);
}

TEST(IntegratedAutocorrelationTimes, DistrustChainsShorterThanFiftyTimes) {
  // τ = 199 for φ = 0.99: 2000 steps are ten times too few; no estimator may call that trustworthy.
  const MatrixD traces = testing::autoregressive_series(0.99, 2000, 1, 9);
  for (const IntegratedTimeEstimate& estimate : integrated_autocorrelation_times(traces)) {
    SCOPED_TRACE(estimate.method);
    EXPECT_FALSE(estimate.trusted);
    EXPECT_FALSE(estimate.warning.empty());
  }
}

TEST(IntegratedAutocorrelationTimes, ReportConstantTracesAsUndefined) {
  for (const IntegratedTimeEstimate& estimate : integrated_autocorrelation_times(MatrixD::Constant(100, 2, 1.0))) {
    SCOPED_TRACE(estimate.method);
    EXPECT_TRUE(std::isnan(estimate.time));
    EXPECT_FALSE(estimate.trusted);
  }
}

}  // namespace
}  // namespace rbmix::analysis
