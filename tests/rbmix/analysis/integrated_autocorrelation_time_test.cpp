#include "rbmix/analysis/integrated_autocorrelation_time.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "autoregressive_series.hpp"
#include "rbmix/core/error.hpp"

namespace rbmix::analysis {
namespace {

constexpr Eigen::Index chains = 32;
constexpr Eigen::Index steps = Eigen::Index{1} << 17;

// Sokal's relative standard deviation of a windowed τ̂ with window M = c τ over N samples: sqrt(2(2M+1)/N).
// The adaptive-window and Geyer estimators sum at most ≈ cτ lags, the AR(1) fit is far more precise
// (sd/τ = 2/sqrt((1−φ²)N)), so each estimate lies within 5 such deviations of τ unless a ≥ 5σ event happens:
// p < 6e-7 per check, < 1e-5 for the 9 checks (normal approximation, valid as N ≫ M). The truncation bias of
// the windows, 2φ^M/(1−φ) ≤ 0.01 τ for M ≥ 5τ_exp, is covered by the extra 1 %.
double allowed_relative_error(double time) {
  const double window = default_window_factor * time;
  return 5.0 * std::sqrt(2.0 * (2.0 * window + 1.0) / static_cast<double>(chains * steps)) + 0.01;
}

class Ar1Series : public ::testing::TestWithParam<double> {};

TEST_P(Ar1Series, EveryEstimatorFindsTheExactTime) {
  const double coefficient = GetParam();
  const double exact = testing::autoregressive_integrated_time_exact(coefficient);
  const MatrixD traces = testing::autoregressive_series(coefficient, steps, chains, 2024);
  for (const IntegratedTimeEstimate& estimate : integrated_autocorrelation_times(traces)) {
    SCOPED_TRACE(estimate.method);
    EXPECT_NEAR(estimate.time / exact, 1.0, allowed_relative_error(exact));
    EXPECT_TRUE(estimate.trusted) << estimate.warning;
  }
}

INSTANTIATE_TEST_SUITE_P(Coefficients, Ar1Series, ::testing::Values(0.5, 0.9, 0.99));

TEST(AutoregressiveIntegratedTime, FindsOrderOneAndABandOfTheAsymptoticWidth) {
  // For AR(1) the delta method gives sd(τ̂)/τ = 2/sqrt((1−φ²)N); the computed band must have that half width
  // (1.96 sd) up to the sampling error of φ̂ in the formula and the extra near-zero coefficients AIC may add
  // (it overfits by one or two orders with probability ≈ 0.3): within 25 %.
  constexpr double coefficient = 0.9;
  const MatrixD traces = testing::autoregressive_series(coefficient, steps, chains, 7);
  const IntegratedTimeEstimate estimate = autoregressive_integrated_time(trace_autocovariance(traces));
  EXPECT_LE(estimate.cutoff, 3);
  const double expected_half_width =
      1.959963984540054 * estimate.time * 2.0 /
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
  const MatrixD traces = testing::autoregressive_series(-0.5, steps, chains, 5);
  const double exact = testing::autoregressive_integrated_time_exact(-0.5);
  EXPECT_NEAR(initial_monotone_sequence_integrated_time(trace_autocovariance(traces)).time / exact, 1.0, 0.02);
  EXPECT_NEAR(autoregressive_integrated_time(trace_autocovariance(traces)).time / exact, 1.0, 0.02);
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
