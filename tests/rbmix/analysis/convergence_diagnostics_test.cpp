#include "rbmix/analysis/convergence_diagnostics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <vector>

#include "rbmix/core/error.hpp"
#include "support/autoregressive_series.hpp"

namespace rbmix::analysis {
namespace {

// A fixed trace (20 × 3 unless asked) with drift in chains c > 0 and rounded terms that tie:
// x[t, c] = sin(0.7 t + c) + 0.05 t c + round(cos(1.9 t c), 1), round to one decimal (half to even).
MatrixD fixed_series(Eigen::Index steps = 20, Eigen::Index chains = 3) {
  MatrixD traces(steps, chains);
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

// Nested R̂ against the same kind of independent numpy script, written from Margossian et al. (2024) eqs. 4–8 and
// ArviZ's documented rhat_nested (split chains, each half in its chain's superchain; the larger of the bulk and the
// folded rank-normalised values, folded about the median of the split draws): 20 × 4 in two superchains grouped
// two ways, 21 × 6 (an odd chain: the middle draw is dropped before the median) in two and in three.
TEST(ConvergenceDiagnostics, NestedRhatMatchesIndependentSpotValues) {
  const MatrixD even = fixed_series(20, 4);
  EXPECT_NEAR(rank_normalised_split_nested_potential_scale_reduction(even, {0, 0, 1, 1}), 1.0759945457505815,
              spot_tolerance);
  EXPECT_NEAR(rank_normalised_split_nested_potential_scale_reduction(even, {0, 1, 0, 1}), 1.0116422270161753,
              spot_tolerance);
  EXPECT_NEAR(nested_potential_scale_reduction(even, {0, 0, 1, 1}), 1.0321258232065198, spot_tolerance);
  const MatrixD odd = fixed_series(21, 6);
  EXPECT_NEAR(rank_normalised_split_nested_potential_scale_reduction(odd, consecutive_superchains(6, 2)),
              1.1136543751627945, spot_tolerance);
  EXPECT_NEAR(rank_normalised_split_nested_potential_scale_reduction(odd, {0, 1, 2, 0, 1, 2}), 1.0551047607293367,
              spot_tolerance);
  EXPECT_NEAR(rank_normalised_split_potential_scale_reduction(odd), 1.3521046157534646, spot_tolerance);
}

// With one chain per superchain nR̂ is R̂ without the (n − 1)/n factor: √(1 + B̂/W) with B̂ the variance of the
// chain means — a closed form of the same chains.
TEST(ConvergenceDiagnostics, NestedRhatOfSingleChainSuperchains) {
  const MatrixD traces = fixed_series(20, 4);
  const VectorD means = traces.colwise().mean().transpose();
  const double between = (means.array() - means.mean()).square().sum() / 3.0;
  const double within = (traces.rowwise() - means.transpose()).array().square().sum() / (4.0 * 19.0);
  EXPECT_NEAR(nested_potential_scale_reduction(traces, {0, 1, 2, 3}), std::sqrt(1.0 + between / within), 1e-12);
  EXPECT_EQ(nested_potential_scale_reduction(MatrixD::Constant(10, 4, 2.0), {0, 0, 1, 1}), 1.0);
}

// Superchains that did not forget their shared starts: 8 chains of 200 steps (each far too short for R̂ ≤ 1.01 at
// τ = 19) in 4 superchains, each superchain's chains offset together by one standard deviation times k; nR̂ must
// rise far above its value for the same chains unshifted, which stays near 1 (a numpy check of the same shapes over
// 1 000 seeds: unshifted median 1.02, largest 1.12; shifted smallest 1.36 — each bound below fails < 1 in 1 000).
TEST(ConvergenceDiagnostics, NestedRhatSeesSuperchainsThatRememberTheirStart) {
  const MatrixD traces = testing::autoregressive_series(0.9, 200, 8, 31);
  const std::vector<Eigen::Index> superchains = consecutive_superchains(8, 4);
  EXPECT_LT(rank_normalised_split_nested_potential_scale_reduction(traces, superchains), 1.15);
  MatrixD shifted = traces;
  for (Eigen::Index chain = 0; chain < 8; ++chain)
    shifted.col(chain).array() += static_cast<double>(chain / 2) * std::sqrt(1.0 / (1.0 - 0.81));
  EXPECT_GT(rank_normalised_split_nested_potential_scale_reduction(shifted, superchains), 1.3);
}

TEST(ConvergenceDiagnostics, SuperchainsAreChecked) {
  const MatrixD traces = fixed_series(20, 4);
  EXPECT_THROW(nested_potential_scale_reduction(traces, {0, 0, 1}), InputError);        // a label per chain
  EXPECT_THROW(nested_potential_scale_reduction(traces, {0, 0, 0, 0}), InputError);     // one superchain
  EXPECT_THROW(nested_potential_scale_reduction(traces, {0, 0, 0, 1}), InputError);     // unequal sizes
  EXPECT_THROW(nested_potential_scale_reduction(traces, {0, 0, 2, 2}), InputError);     // superchain 1 empty
  EXPECT_THROW(nested_potential_scale_reduction(traces, {0, 0, -1, -1}), InputError);   // negative label
  EXPECT_THROW(consecutive_superchains(6, 4), InputError);
  EXPECT_THROW(consecutive_superchains(6, 1), InputError);
  EXPECT_EQ(consecutive_superchains(6, 3), (std::vector<Eigen::Index>{0, 0, 1, 1, 2, 2}));
}

// Every draw's rank-normalised score by the definition, draw by draw: its average rank among all draws with ties
// averaged, r = #{smaller} + (#{equal} + 1)/2, mapped by Φ^{-1}((r − 3/8)/(S + 1/4)).
MatrixD scores_by_definition(const MatrixD& draws) {
  const boost::math::normal standard_normal;
  const auto total = static_cast<double>(draws.size());
  MatrixD scores(draws.rows(), draws.cols());
  for (Eigen::Index i = 0; i < draws.size(); ++i) {
    const double x = draws.data()[i];
    const auto smaller = static_cast<double>((draws.array() < x).count());
    const auto equal = static_cast<double>((draws.array() == x).count());
    const double rank = smaller + 0.5 * (equal - 1.0) + 1.0;
    scores.data()[i] = boost::math::quantile(standard_normal, (rank - 0.375) / (total + 0.25));
  }
  return scores;
}

// The split chains are ranked from one sort of the draws, read in place, and the folded ones from the same order,
// the order and the ranks held in the scores' own memory: the same scores, to the bit, as ranking split_chains(traces)
// and |split − median| by the definition; the same R̂ and bulk ESS as those scores give.
TEST(ConvergenceDiagnostics, RanksReadFromOneSortEqualRanksOfCopies) {
  for (const Eigen::Index steps : {Eigen::Index{20}, Eigen::Index{21}})
    for (const bool tied : {false, true}) {
      SCOPED_TRACE(::testing::Message() << steps << (tied ? " steps, rounded to halves" : " steps"));
      const MatrixD series = fixed_series(steps, 3);
      // Rounded to halves, most draws tie with others, and so do their folded values.
      const MatrixD traces = tied ? MatrixD((2.0 * series.array()).round() / 2.0) : series;
      const MatrixD split = split_chains(traces);
      std::vector<double> draws(split.data(), split.data() + split.size());
      std::sort(draws.begin(), draws.end());
      const double median = 0.5 * (draws[draws.size() / 2 - 1] + draws[draws.size() / 2]);
      const MatrixD folded = (split.array() - median).abs().matrix();
      if (tied) {
        ASSERT_NE(std::adjacent_find(draws.begin(), draws.end()), draws.end()) << "no ties: the case tests less";
      }
      EXPECT_EQ(rank_normalise(split), scores_by_definition(split));
      EXPECT_EQ(rank_normalise(folded), scores_by_definition(folded));
      EXPECT_EQ(rank_normalise(traces), scores_by_definition(traces));
      EXPECT_EQ(rank_normalised_split_potential_scale_reduction(traces),
                std::max(potential_scale_reduction(scores_by_definition(split)),
                         potential_scale_reduction(scores_by_definition(folded))));
      EXPECT_EQ(bulk_effective_sample_size(traces).time, effective_sample_size(scores_by_definition(split)).time);
    }
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
