#include "rbmix/analysis/autocorrelation.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "rbmix/core/error.hpp"
#include "support/autoregressive_series.hpp"

namespace rbmix::analysis {
namespace {

// FFT and direct sums differ only by rounding over at most a few hundred terms of size ≤ 1e4.
constexpr double fft_tolerance = 1e-9;

RC_GTEST_PROP(Autocovariance, EqualsTheDirectSumAtEveryLag, ()) {
  const auto values =
      *rc::gen::container<std::vector<int>>(*rc::gen::inRange<std::size_t>(2, 300), rc::gen::inRange(-100, 101));
  VectorD series(static_cast<Eigen::Index>(values.size()));
  for (std::size_t t = 0; t < values.size(); ++t) series[static_cast<Eigen::Index>(t)] = values[t];
  const VectorD fast = autocovariance(series);
  const double mean = series.mean();
  const auto n = series.size();
  for (Eigen::Index lag = 0; lag < n; ++lag) {
    double direct = 0.0;
    for (Eigen::Index t = 0; t + lag < n; ++t) direct += (series[t] - mean) * (series[t + lag] - mean);
    RC_ASSERT(std::abs(fast[lag] - direct / static_cast<double>(n)) < fft_tolerance);
  }
}

// Up to a largest lag L the autocovariance is summed block by block (blocks of max(L + 1, 8192) steps); it must
// equal the whole series' transform at every lag it returns. Series up to 40 000 steps reach several blocks.
RC_GTEST_PROP(TraceAutocovariance, UpToALargestLagEqualsEveryLagsTransform, ()) {
  const auto steps = *rc::gen::inRange<Eigen::Index>(2, 40001);
  const auto chains = *rc::gen::inRange<Eigen::Index>(1, 3);
  const auto largest_lag =
      *rc::gen::oneOf(rc::gen::inRange<Eigen::Index>(0, 64), rc::gen::inRange<Eigen::Index>(0, steps));
  const auto seed = *rc::gen::arbitrary<std::uint32_t>();
  const MatrixD traces = testing::autoregressive_series(0.95, steps, chains, seed);
  const TraceAutocovariance all = trace_autocovariance(traces);
  const TraceAutocovariance some = trace_autocovariance(traces, largest_lag);
  const Eigen::Index lags = std::min(largest_lag, steps - 1);
  RC_ASSERT(some.largest_lag() == lags);
  RC_ASSERT(some.complete() == (lags == steps - 1));
  RC_ASSERT(all.complete());
  // Both sum the same ≤ 40 000 products of size ≤ ~100 in other orders: rounding of order 1e-16 × 4e6.
  const double scale = all.mean_autocovariance[0];
  for (Eigen::Index lag = 0; lag <= lags; ++lag)
    RC_ASSERT(std::abs(some.mean_autocovariance[lag] - all.mean_autocovariance[lag]) <= 1e-11 * scale);
}

TEST(TraceAutocovariance, ALargestLagBeyondTheChainStopsAtItsEnd) {
  const MatrixD traces = testing::autoregressive_series(0.5, 10, 2, 3);
  EXPECT_EQ(trace_autocovariance(traces, 1000).largest_lag(), 9);
  EXPECT_THROW(trace_autocovariance(traces, -1), InputError);
}

TEST(MeanAutocovariance, AveragesTheChains) {
  MatrixD traces(4, 2);
  traces << 1, 0, 2, 0, 3, 1, 5, 7;
  const VectorD expected = (autocovariance(traces.col(0)) + autocovariance(traces.col(1))) / 2.0;
  EXPECT_TRUE(mean_autocovariance(traces).isApprox(expected, 1e-14));
}

TEST(Autocorrelation, OfAnAr1SeriesIsPowersOfTheCoefficient) {
  // 16 chains × 2^14 steps: the standard error of ρ̂(Δt) is below sqrt(τ/N) = sqrt(19/262144) ≈ 0.0085 for φ = 0.9
  // (Bartlett); 0.05 is ~6 standard errors, p < 1e-8 for each of the 10 lags.
  constexpr double coefficient = 0.9;
  constexpr double tolerance = 0.05;
  const VectorD correlation = autocorrelation(testing::autoregressive_series(coefficient, 1 << 14, 16, 11));
  EXPECT_EQ(correlation[0], 1.0);
  for (int lag = 1; lag <= 10; ++lag) EXPECT_NEAR(correlation[lag], std::pow(coefficient, lag), tolerance) << lag;
}

TEST(Autocorrelation, RejectsConstantAndMalformedTraces) {
  EXPECT_THROW(autocorrelation(MatrixD::Constant(10, 3, 2.5)), InputError);
  EXPECT_THROW(autocorrelation(MatrixD::Zero(1, 3)), InputError);
  MatrixD with_nan = MatrixD::Zero(5, 1);
  with_nan(2, 0) = std::nan("");
  EXPECT_THROW(autocorrelation(with_nan), InputError);
}

}  // namespace
}  // namespace rbmix::analysis
