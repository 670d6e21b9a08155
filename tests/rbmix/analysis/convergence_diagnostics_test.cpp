#include "rbmix/analysis/convergence_diagnostics.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "rbmix/core/error.hpp"
#include "support/autoregressive_series.hpp"

namespace rbmix::analysis {
namespace {

// A fixed 20 × 3 trace with drift in chains 1 and 2 and rounded terms that tie:
// x[t, c] = sin(0.7 t + c) + 0.05 t c + round(cos(1.9 t c), 1), round to one decimal (half to even).
MatrixD fixed_series() {
  MatrixD traces(20, 3);
  for (Eigen::Index t = 0; t < traces.rows(); ++t)
    for (Eigen::Index c = 0; c < traces.cols(); ++c) {
      const double td = static_cast<double>(t), cd = static_cast<double>(c);
      traces(t, c) = std::sin(0.7 * td + cd) + 0.05 * td * cd + std::nearbyint(10.0 * std::cos(1.9 * td * cd)) / 10.0;
    }
  return traces;
}

// Spot values from an independent implementation of the published formulas: a numpy script (run once) that
// splits the chains, ranks all draws with ties averaged, maps ranks by Φ^{-1}((r − 3/8)/(S + 1/4)) (statistics
// .NormalDist), computes R̂ = √((B/W + n − 1)/n) with ddof-1 variances, and Stan's ESS with the biased lag sums
// (1/n) Σ, Geyer's pairs and monotone step and the final ρ̂_T term, written line by line from Vehtari et al.
// (2021) §3.2 and Stan's reference code, not from this file. Agreement to 1e-9 relative: both sum the same few
// hundred terms in double precision.
constexpr double spot_tolerance = 1e-9;

TEST(ConvergenceDiagnostics, MatchIndependentSpotValues) {
  const MatrixD traces = fixed_series();
  EXPECT_NEAR(rank_normalised_split_potential_scale_reduction(traces), 1.0386457434047802, spot_tolerance);
  EXPECT_NEAR(potential_scale_reduction(traces), 1.0088220394956153, spot_tolerance);
  const SequenceEstimate bulk = bulk_effective_sample_size(traces);
  EXPECT_NEAR(bulk.effective_sample_size, 32.14741048048062, 32.0 * spot_tolerance);
  EXPECT_EQ(bulk.cutoff, 4);
  const SequenceEstimate mean = effective_sample_size(split_chains(traces));
  EXPECT_NEAR(mean.effective_sample_size, 30.968906635016133, 31.0 * spot_tolerance);
  EXPECT_NEAR(mean.time, 1.9374271331929682, spot_tolerance);
  EXPECT_NEAR(tail_effective_sample_size(traces), 40.702116675271036, 41.0 * spot_tolerance);
}

TEST(ConvergenceDiagnostics, SplitAndRankAsDefined) {
  MatrixD traces(5, 1);
  traces << 3.0, 1.0, 1.0, 2.0, 9.0;
  const MatrixD split = split_chains(traces);
  ASSERT_EQ(split.rows(), 2);
  ASSERT_EQ(split.cols(), 2);
  EXPECT_EQ(split(0, 0), 3.0);
  EXPECT_EQ(split(1, 1), 9.0);  // the middle draw is dropped
  const MatrixD ranks = rank_normalise(traces);
  EXPECT_EQ(ranks(1, 0), ranks(2, 0));                   // tied draws share the mean rank 1.5
  EXPECT_NEAR(ranks(1, 0), -0.7916386077433746, 1e-12);  // Φ^{-1}((1.5 − 3/8)/(5 + 1/4))
  EXPECT_NEAR(ranks(3, 0), 0.0, 1e-15);                  // rank 3 of 5 is the median
  EXPECT_THROW(split_chains(MatrixD::Zero(3, 2)), InputError);
}

TEST(ConvergenceDiagnostics, RhatSeesChainsThatDisagree) {
  // Four AR(1) chains (τ = 19) of 2^16 steps, split into 8 of n = 2^15: R̂ − 1 ≈ τ χ²_7 / (2 n · 7) (B/W of
  // stationary chains), mean 3e-4, so R̂ > 1.01 needs χ²_7/7 > 34 (p < 1e-30, twice for the folded R̂).
  // (A numpy check over 200 seeds at n = 2048 found R̂ > 1.01 in 2 %: the threshold needs long chains.)
  // One chain shifted by two standard deviations must push R̂ far above 1.01, and so must a drift inside every
  // chain, which only the split sees.
  MatrixD traces = testing::autoregressive_series(0.9, Eigen::Index{1} << 16, 4, 11);
  EXPECT_LT(rank_normalised_split_potential_scale_reduction(traces), 1.01);
  MatrixD shifted = traces;
  shifted.col(3).array() += 2.0 * std::sqrt(1.0 / (1.0 - 0.81));
  EXPECT_GT(rank_normalised_split_potential_scale_reduction(shifted), 1.1);
  MatrixD drifting = traces;
  for (Eigen::Index t = 0; t < drifting.rows(); ++t)
    drifting.row(t).array() += 6.0 * static_cast<double>(t) / static_cast<double>(drifting.rows());
  EXPECT_LT(potential_scale_reduction(drifting), 1.01);
  EXPECT_GT(rank_normalised_split_potential_scale_reduction(drifting), 1.1);
  EXPECT_EQ(potential_scale_reduction(MatrixD::Constant(10, 3, 2.0)), 1.0);
}

TEST(ConvergenceDiagnostics, EffectiveSampleSizeOfAnAutoregressiveSeries) {
  // ESS = S/τ, τ = (1 + φ)/(1 − φ) = 19; 16 chains × 2^15 steps, Sokal's relative sd √(2(2M+1)/S) with M ≈
  // 6τ_exp ≈ 60 is 0.014: 5 sd (p < 6e-7) plus 1 % for the truncated tail.
  const MatrixD traces = testing::autoregressive_series(0.9, Eigen::Index{1} << 15, 16, 21);
  const double total = static_cast<double>(traces.size());
  EXPECT_NEAR(effective_sample_size(split_chains(traces)).time / 19.0, 1.0, 5.0 * 0.014 + 0.01);
  EXPECT_NEAR(bulk_effective_sample_size(traces).effective_sample_size * 19.0 / total, 1.0, 5.0 * 0.014 + 0.01);
  // For a Gaussian series an indicator I(x ≤ q) is less correlated than x at every lag (|corr| ≤ |ρ| for the
  // bivariate normal), so the tail ESS lies between S/τ and S.
  const double tail = tail_effective_sample_size(traces);
  EXPECT_GT(tail, total / 19.0);
  EXPECT_LT(tail, total);
}

// The sequences read the autocovariance up to a largest lag that grows from 4096 while they would read beyond it.
// φ = 0.9995 (τ ≈ 4000) on 2 chains of 2^17 steps stops beyond lag 4096 and well before the end: asked for every lag
// at once, or for 4 and growing from there, the sequences must keep the same lags and the same τ̂ to rounding.
TEST(ConvergenceDiagnostics, SequencesDoNotDependOnTheLagsComputedFirst) {
  const MatrixD split = split_chains(testing::autoregressive_series(0.9995, Eigen::Index{1} << 17, 2, 5));
  const SequenceEstimates grown = effective_sample_sizes(split);
  ASSERT_GT(grown.monotone.cutoff, 4096);
  ASSERT_TRUE(grown.monotone.terminated);
  for (const Eigen::Index initial_lag : {Eigen::Index{4}, split.rows() - 1}) {
    const SequenceEstimates other = effective_sample_sizes(split, initial_lag);
    EXPECT_EQ(other.positive.cutoff, grown.positive.cutoff) << initial_lag;
    EXPECT_EQ(other.monotone.cutoff, grown.monotone.cutoff) << initial_lag;
    EXPECT_NEAR(other.positive.time / grown.positive.time, 1.0, 1e-10) << initial_lag;
    EXPECT_NEAR(other.monotone.time / grown.monotone.time, 1.0, 1e-10) << initial_lag;
  }
  EXPECT_FALSE(grown.positive.monotone);
  EXPECT_TRUE(grown.monotone.monotone);
  EXPECT_EQ(effective_sample_size(split, false).time, grown.positive.time);
  EXPECT_EQ(effective_sample_size(split).time, grown.monotone.time);
}

// The shared computation gives what the three functions give one by one.
TEST(ConvergenceDiagnostics, SharedEqualsOneByOne) {
  const MatrixD traces = testing::autoregressive_series(0.9, 5000, 3, 8);
  const ConvergenceDiagnostics shared = convergence_diagnostics(traces);
  EXPECT_EQ(shared.potential_scale_reduction, rank_normalised_split_potential_scale_reduction(traces));
  EXPECT_EQ(shared.bulk.time, bulk_effective_sample_size(traces).time);
  EXPECT_EQ(shared.bulk.cutoff, bulk_effective_sample_size(traces).cutoff);
  EXPECT_EQ(shared.tail_effective_sample_size, tail_effective_sample_size(traces));
}

// Negating every draw negates the median (the mean of the two middle draws of an even count, as ArviZ takes it)
// and leaves every |x − median| as it was, so the folded R̂ is the same; the bulk R̂ is too, ranks being reversed.
// Chains with one centre and different widths make the folded R̂ the larger, so the median is what is tested.
TEST(ConvergenceDiagnostics, RhatOfNegatedDrawsIsTheSame) {
  MatrixD traces(10, 2);
  for (Eigen::Index t = 0; t < traces.rows(); ++t) {
    traces(t, 0) = 0.1 * std::sin(static_cast<double>(t));
    traces(t, 1) = 3.0 * std::cos(1.3 * static_cast<double>(t));
  }
  const double rhat = rank_normalised_split_potential_scale_reduction(traces);
  ASSERT_GT(rhat, potential_scale_reduction(rank_normalise(split_chains(traces))) + 0.01);
  EXPECT_NEAR(rank_normalised_split_potential_scale_reduction(-traces), rhat, 1e-12 * rhat);
  EXPECT_NEAR(convergence_diagnostics(-traces).potential_scale_reduction, rhat, 1e-12 * rhat);
}

}  // namespace
}  // namespace rbmix::analysis
