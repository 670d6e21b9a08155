#include "rbmix/analysis/integrated_autocorrelation_time.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <omp.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <vector>

#include "rbmix/analysis/convergence_diagnostics.hpp"
#include "rbmix/analysis/exact_autocorrelation_time.hpp"
#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/sampling/energy_trace.hpp"
#include "support/autoregressive_series.hpp"
#include "support/input_error_message.hpp"
#include "support/test_names.hpp"

namespace rbmix::analysis {
namespace {

constexpr Eigen::Index chains = 32;
constexpr Eigen::Index steps = Eigen::Index{1} << 15;

// Every estimate must lie within 5 of its own standard errors (the half width of its 95 % interval / 1.96) of the
// exact τ, plus its known bias: 1 % of τ for the truncated windows (2φ^M/(1−φ) ≤ 0.01 τ for M ≥ 5τ_exp) and, for the
// batch means, the O(1/b) bias of τ̂ = σ̂²_b/σ², −2 Σ_k k ρ(k)/b, which is −2φ/((1−φ)² b) for AR(1) (Flegal &
// Jones 2010 §3). A correct estimator with a correct interval misses by 5 sd with p < 6e-7 per check (normal
// approximation, valid as N ≫ M), < 2e-5 for the 28 checks of this file.
constexpr double allowed_standard_errors = 5.0;

// Of the estimator's own band: the checks below test each estimator's noise, not the joined interval.
double standard_error(const IntegratedTimeEstimate& estimate) {
  return (estimate.band_upper - estimate.band_lower) / (2.0 * 1.959963984540054);
}

bool is_batch_means(const IntegratedTimeEstimate& estimate) {
  return estimate.method == "batch_means" || estimate.method == "overlapping_batch_means";
}

class Ar1Series : public ::testing::TestWithParam<double> {};

TEST_P(Ar1Series, EveryEstimatorFindsTheExactTimeWithinItsInterval) {
  const double coefficient = GetParam();
  const double exact = testing::autoregressive_integrated_time_exact(coefficient);
  const MatrixD traces = testing::autoregressive_series(coefficient, steps, chains, 2024);
  // The disagreement of a correct estimate with a correct cross-check is about N(0, 1): the default rule's 3
  // would fail this test with probability ≈ 0.5 %, so trust is checked with 5.3 (p < 1e-7 per check).
  TrustRule rule;
  rule.max_disagreement = 5.3;
  const MixingDiagnostics diagnostics = mixing_diagnostics(traces, rule);
  ASSERT_EQ(diagnostics.estimates.size(), 7u);
  for (const IntegratedTimeEstimate& estimate : diagnostics.estimates) {
    SCOPED_TRACE(estimate.method);
    const double bias =
        is_batch_means(estimate)
            ? 2.0 * coefficient / ((1.0 - coefficient) * (1.0 - coefficient) * static_cast<double>(estimate.cutoff))
            : 0.0;
    EXPECT_NEAR(estimate.time, exact, allowed_standard_errors * standard_error(estimate) + 0.01 * exact + bias);
    EXPECT_LT(estimate.lower, estimate.time);
    EXPECT_GT(estimate.upper, estimate.time);
    if (is_batch_means(estimate) && static_cast<double>(estimate.cutoff) < rule.min_batch_in_times * estimate.time) {
      // At φ = 0.99 (τ = 199) the batches are under 10 τ̂, and under twice the lag the monotone sequence reached:
      // rules 6 and 7 flag the bias allowed for above, and nothing else does.
      EXPECT_NE(estimate.warning.find("its batches are"), std::string::npos) << estimate.warning;
      for (std::size_t start = 0;;) {
        EXPECT_EQ(estimate.warning.compare(start, 12, "its batches "), 0) << estimate.warning;
        const std::size_t end = estimate.warning.find("; ", start);
        if (end == std::string::npos) break;
        start = end + 2;
      }
    } else {
      EXPECT_TRUE(estimate.trusted) << estimate.warning;
    }
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
  // The rank-normalised estimate is τ of Φ^{-1}(F(E)), a different function of the state, and is not compared.
  // The batch means' O(1/b) bias is below 0.5 % here (τ_exp ≈ τ ≈ 7, b = 1024). Trust as in Ar1Series.
  TrustRule trust;
  trust.max_disagreement = 5.3;
  for (const IntegratedTimeEstimate& estimate : mixing_diagnostics(traces, trust).estimates) {
    SCOPED_TRACE(estimate.method);
    if (estimate.method == "rank_normalised") continue;
    EXPECT_NEAR(estimate.time, exact, allowed_standard_errors * standard_error(estimate) + 0.01 * exact)
        << "exact τ " << exact;
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

// An AR(1) autocovariance γ(k) = φ^k/(1 − φ²) given exactly, with φ = 0.99999 (τ = 2·10^5, as 003 Table 2's MNIST
// chains): Levinson–Durbin finds φ at order 1 and zeros beyond, so AIC picks order 1, and the delta-method band is
// τ ± 1.96 τ · 2/√((1 − φ²) N) (the test above) up to the central differences' error. A fixed difference step of
// 10^-5 stepped onto Σφ = 1 and gave a band of ±∞.
TEST(AutoregressiveIntegratedTime, KeepsAFiniteBandForAFitNearTheNonStationaryBoundary) {
  constexpr double coefficient = 0.99999;
  TraceAutocovariance covariance;
  covariance.steps = 100'000'000;
  covariance.chains = 1;
  covariance.chain_means = VectorD::Zero(1);
  covariance.mean_autocovariance.resize(4096);
  for (Eigen::Index lag = 0; lag < covariance.mean_autocovariance.size(); ++lag)
    covariance.mean_autocovariance[lag] =
        std::pow(coefficient, static_cast<double>(lag)) / (1.0 - coefficient * coefficient);
  const IntegratedTimeEstimate estimate = autoregressive_integrated_time(covariance);
  const double exact = testing::autoregressive_integrated_time_exact(coefficient);
  EXPECT_EQ(estimate.cutoff, 1);
  EXPECT_NEAR(estimate.time / exact, 1.0, 1e-6);
  ASSERT_TRUE(std::isfinite(estimate.lower) && std::isfinite(estimate.upper));
  const double half_width = 1.959963984540054 * exact * 2.0 /
                            std::sqrt((1.0 - coefficient * coefficient) * static_cast<double>(covariance.steps));
  EXPECT_NEAR((estimate.upper - estimate.lower) / 2.0 / half_width, 1.0, 1e-3);
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
  EXPECT_NEAR(initial_monotone_sequence_integrated_time(traces).time / exact, 1.0, 0.03);
  EXPECT_NEAR(autoregressive_integrated_time(trace_autocovariance(traces)).time / exact, 1.0, 0.03);
}

TEST(AdaptiveWindowIntegratedTime, DistrustsANegativeSumOfAStronglyAntitheticChain) {
  // φ = −0.9: τ̂(1) = 1 + 2ρ(1) ≈ −0.8, and 1 ≥ c τ̂(1) stops the window there; τ = 0.1/1.9 in truth.
  const MatrixD traces = testing::autoregressive_series(-0.9, 1 << 14, 4, 13);
  const IntegratedTimeEstimate window = adaptive_window_integrated_time(trace_autocovariance(traces));
  EXPECT_LT(window.time, 0.0);
  EXPECT_FALSE(window.trusted);
  // Stan's sequence estimate is floored at 1/log10 S (ESS ≤ S log10 S), 0.208 for S = 2^16 draws; the raw sum
  // estimates τ = 0.053, far below, so the floor holds and the estimate stays positive where Sokal's is negative.
  const IntegratedTimeEstimate sequence = initial_monotone_sequence_integrated_time(traces);
  EXPECT_DOUBLE_EQ(sequence.time, 1.0 / std::log10(static_cast<double>(traces.size())));
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

TEST(TrustRule, FlagsTheWindowThatMissesASlowTail) {
  // A fast AR(1) (φ = 0.5, variance 4/3, τ = 3) plus a slow one of small weight (φ = 0.99, variance 1/15,
  // τ = 199): τ = (4/3 · 3 + 1/15 · 199)/(4/3 + 1/15) = 12.33 — the shape of the demo's BAS model, whose
  // autocorrelation drops fast and then decays slowly. Sokal's window stops after ≈ 5 τ̂(M) ≈ 30 lags and
  // reports about half; its own interval (≈ ±2 %) is narrow, so only the batch-means cross-check (b = 736, which
  // keeps ≈ 90 % of the tail) can flag it: the gap is ≈ 10 combined standard errors, far past the rule's 3.
  constexpr Eigen::Index tail_steps = 20000, tail_chains = 64;
  MatrixD traces = testing::autoregressive_series(0.5, tail_steps, tail_chains, 31);
  traces +=
      std::sqrt((1.0 / 15.0) * (1.0 - 0.99 * 0.99)) * testing::autoregressive_series(0.99, tail_steps, tail_chains, 32);
  const double exact = (4.0 / 3.0 * 3.0 + 1.0 / 15.0 * 199.0) / (4.0 / 3.0 + 1.0 / 15.0);
  const MixingDiagnostics diagnostics = mixing_diagnostics(traces);
  for (const IntegratedTimeEstimate& estimate : diagnostics.estimates) {
    SCOPED_TRACE(estimate.method);
    // The rule's promise: an estimate more than 20 % off is not trusted.
    if (std::abs(estimate.time / exact - 1.0) > 0.2) {
      EXPECT_FALSE(estimate.trusted) << estimate.time;
    }
  }
  const IntegratedTimeEstimate& window = diagnostics.estimates[1];
  ASSERT_EQ(window.method, "adaptive_window");
  EXPECT_LT(window.time, 0.7 * exact);
  EXPECT_NE(window.warning.find("cross-check"), std::string::npos) << window.warning;
  EXPECT_NEAR(diagnostics.recommended().time, exact, 0.2 * exact);
}

TEST(TrustRule, NamesEveryReason) {
  const TrustRule rule;
  const double none = std::nan("");  // not a batch-means estimate
  TrustSignals signals{"", 1.0, 100.0, 0.05, 1.0, none};
  EXPECT_EQ(trust_verdict(signals, rule), "");
  signals.potential_scale_reduction = 1.05;
  EXPECT_NE(trust_verdict(signals, rule).find("R̂ = 1.05"), std::string::npos);
  // Just above the bound, the numbers get the digits that tell them apart.
  signals.potential_scale_reduction = rule.max_potential_scale_reduction + 2e-5;
  EXPECT_NE(trust_verdict(signals, rule).find("R̂ = 1.01002 > 1.01"), std::string::npos) << trust_verdict(signals, rule);
  signals = {"", 1.0, 20.0, 0.05, 1.0, none};
  EXPECT_NE(trust_verdict(signals, rule).find("20 τ̂ long"), std::string::npos);
  signals = {"", 1.0, 100.0, 0.5, 1.0, none};
  EXPECT_NE(trust_verdict(signals, rule).find("interval is ±50 %"), std::string::npos);
  signals = {"", 1.0, 100.0, 0.05, 1.0, 4.0};
  EXPECT_NE(trust_verdict(signals, rule).find("batches are 4 τ̂ long"), std::string::npos);
  signals.batch_in_times = 10.0;
  EXPECT_EQ(trust_verdict(signals, rule), "");
  signals = {"", 1.0, 100.0, 0.05, 1.0, none, 0.31};
  EXPECT_NE(trust_verdict(signals, rule).find("moves it by ±31 % (jackknife), more than ±30 %: it rests on a few chains"),
            std::string::npos)
      << trust_verdict(signals, rule);
  signals.chain_jackknife_half_width = 0.3;
  EXPECT_EQ(trust_verdict(signals, rule), "");
  signals = {"own", 1.0, 100.0, 0.05, 10.0, none};
  const std::string both = trust_verdict(signals, rule);
  EXPECT_EQ(both.rfind("own; ", 0), 0u) << both;
  EXPECT_NE(both.find("10 standard errors"), std::string::npos);
  TrustRule invalid;
  invalid.max_disagreement = 0.0;
  EXPECT_THROW(invalid.validate(), InputError);
  invalid = TrustRule{};
  invalid.min_batch_in_times = -1.0;
  EXPECT_THROW(invalid.validate(), InputError);
}

TEST(IntegratedAutocorrelationTimes, ReportConstantTracesAsUndefined) {
  for (const IntegratedTimeEstimate& estimate : integrated_autocorrelation_times(MatrixD::Constant(100, 2, 1.0))) {
    SCOPED_TRACE(estimate.method);
    EXPECT_TRUE(std::isnan(estimate.time));
    EXPECT_FALSE(estimate.trusted);
  }
}

// mixing_diagnostics computes the autocovariance up to 4096 lags first and more while the adaptive window is not
// found, and shares the split chains, ranks and sequences between estimators; each estimator called alone on every
// lag must give the same estimates. φ = 0.9995 (τ ≈ 4000): Sokal's window M ≈ 5τ is beyond lag 4096.
TEST(MixingDiagnostics, EqualTheEstimatorsCalledOneByOne) {
  const MatrixD traces = testing::autoregressive_series(0.9995, Eigen::Index{1} << 17, 2, 13);
  const MixingDiagnostics diagnostics = mixing_diagnostics(traces);
  const TraceAutocovariance every_lag = trace_autocovariance(traces);
  const std::vector<IntegratedTimeEstimate> alone = {
      autoregressive_integrated_time(every_lag),         adaptive_window_integrated_time(every_lag),
      initial_positive_sequence_integrated_time(traces), initial_monotone_sequence_integrated_time(traces),
      rank_normalised_integrated_time(traces),           batch_means_integrated_time(traces),
      overlapping_batch_means_integrated_time(traces)};
  ASSERT_EQ(diagnostics.estimates.size(), alone.size());
  ASSERT_GT(alone[1].cutoff, 4096);
  for (std::size_t k = 0; k < alone.size(); ++k) {
    SCOPED_TRACE(alone[k].method);
    EXPECT_EQ(diagnostics.estimates[k].method, alone[k].method);
    EXPECT_EQ(diagnostics.estimates[k].cutoff, alone[k].cutoff);
    EXPECT_NEAR(diagnostics.estimates[k].time / alone[k].time, 1.0, 1e-10);
    EXPECT_NEAR(diagnostics.estimates[k].band_upper / alone[k].upper, 1.0, 1e-10);
  }
  EXPECT_EQ(diagnostics.potential_scale_reduction, rank_normalised_split_potential_scale_reduction(traces));
  EXPECT_EQ(diagnostics.bulk_effective_sample_size, bulk_effective_sample_size(traces).effective_sample_size);
  EXPECT_EQ(diagnostics.tail_effective_sample_size, tail_effective_sample_size(traces));
}

TEST(AutoregressiveIntegratedTime, RejectsAnAutocovarianceShorterThanItsLargestOrder) {
  const MatrixD traces = testing::autoregressive_series(0.5, 1000, 1, 2);
  EXPECT_THROW(autoregressive_integrated_time(trace_autocovariance(traces, 5)), InputError);
}

// Whether two estimates agree to `tolerance` relative, an undefined one (NaN) with an undefined one only.
bool same_estimate(double a, double b, double tolerance) {
  return std::isnan(a) ? std::isnan(b) : std::abs(a - b) <= tolerance * std::abs(b);
}

// τ̂, its interval, R̂ and the ESS do not depend on the trace's units: a·x + b, with |a| from 1e-300 to 1e300 (where
// the squares of the draws overflow or vanish) and b up to a thousand standard deviations of x. Agreement to 1e-6
// relative: an offset costs x up to 10 of its 52 bits, a scale one rounding per draw, and the estimates move by as
// little, far from a flip of the discrete choices (the AR order, the window, the sequence's end).
RC_GTEST_PROP(MixingDiagnostics, FreeOfTheTracesScaleAndOffset, ()) {
  static const MatrixD traces = testing::autoregressive_series(0.9, 2000, 4, 21);
  static const MixingDiagnostics reference = mixing_diagnostics(traces);
  const double scale = *rc::gen::element(-1.0, 1.0) * *rc::gen::inRange(1000, 10000) / 1000.0 *
                       std::pow(10.0, *rc::gen::inRange(-300, 300));
  const double offset = scale * *rc::gen::inRange(-1000, 1000);
  const MixingDiagnostics moved = mixing_diagnostics(MatrixD((traces.array() * scale + offset).matrix()));
  constexpr double tolerance = 1e-6;
  RC_ASSERT(moved.estimates.size() == reference.estimates.size());
  for (std::size_t k = 0; k < moved.estimates.size(); ++k) {
    const IntegratedTimeEstimate &estimate = moved.estimates[k], &expected = reference.estimates[k];
    RC_ASSERT(same_estimate(estimate.time, expected.time, tolerance));
    RC_ASSERT(same_estimate(estimate.lower, expected.lower, tolerance));
    RC_ASSERT(same_estimate(estimate.upper, expected.upper, tolerance));
    RC_ASSERT(estimate.cutoff == expected.cutoff);
    RC_ASSERT(estimate.trusted == expected.trusted);
  }
  RC_ASSERT(same_estimate(moved.potential_scale_reduction, reference.potential_scale_reduction, tolerance));
  RC_ASSERT(same_estimate(moved.bulk_effective_sample_size, reference.bulk_effective_sample_size, tolerance));
  RC_ASSERT(same_estimate(moved.tail_effective_sample_size, reference.tail_effective_sample_size, tolerance));
}

// The units of the report's examples: scaled by 1e200 (squares overflow), by 1e-170 (squares vanish: the trace read
// as constant), and an outlier of 1e160 among draws of order 1, which makes the trace a single spike: white noise,
// τ = 1, not NaN.
TEST(MixingDiagnostics, TracesWhoseSquaresLeaveTheRangeOfADouble) {
  const MatrixD traces = testing::autoregressive_series(0.9, 4000, 2, 5);
  const double tau = mixing_diagnostics(traces).recommended().time;
  for (const double scale : {1e200, 1e-170}) {
    const MixingDiagnostics scaled = mixing_diagnostics(MatrixD(traces * scale));
    EXPECT_NEAR(scaled.recommended().time, tau, 1e-9 * tau) << "scale " << scale;
    for (const IntegratedTimeEstimate& estimate : scaled.estimates) EXPECT_TRUE(std::isfinite(estimate.time));
  }
  MatrixD spike = traces;
  spike(1234, 1) = 1e160;
  for (const IntegratedTimeEstimate& estimate : mixing_diagnostics(spike).estimates) {
    SCOPED_TRACE(estimate.method);
    EXPECT_TRUE(std::isfinite(estimate.time));
    EXPECT_EQ(estimate.warning.find("constant"), std::string::npos) << estimate.warning;
  }
  // The adaptive window: a spike among N draws has ρ(Δt) ≈ −1/N, so its M ≈ 5 lags give τ̂ ≈ 1 − 2M/N.
  EXPECT_NEAR(mixing_diagnostics(spike).estimates[1].time, 1.0, 0.01);
}

TEST(MixingDiagnostics, RefuseChainsTooShortToSplitIntoHalvesOfFourSteps) {
  EXPECT_THAT(testing::input_error_message([] { mixing_diagnostics(MatrixD::Random(7, 4)); }),
              ::testing::HasSubstr("each chain needs at least 8 steps"));
  EXPECT_EQ(mixing_diagnostics(testing::autoregressive_series(0.5, 8, 4, 3)).estimates.size(), 7U);
}

// τ > 0, so an interval end at or below 0 is none (NaN): a 12-step chain, where the normal bands around τ̂ are wide,
// and a trace with one constant chain.
// Two independent AR(1) series added, a fast one with most of the variance and a slow one with a little: τ =
// Σ_i w_i (1 + φ_i)/(1 − φ_i) with w_i the shares of the variance (1/(1 − φ_i²) each for unit innovations).
struct FastPlusSlow {
  MatrixD traces;
  double exact_time;
};
FastPlusSlow fast_plus_slow(Eigen::Index steps, Eigen::Index chains, std::uint64_t seed) {
  const double fast = 0.5, slow = 0.995, slow_scale = 0.035;
  const double fast_variance = 1.0 / (1.0 - fast * fast);
  const double slow_variance = slow_scale * slow_scale / (1.0 - slow * slow);
  const double exact = (fast_variance * (1.0 + fast) / (1.0 - fast) + slow_variance * (1.0 + slow) / (1.0 - slow)) /
                       (fast_variance + slow_variance);
  return {testing::autoregressive_series(fast, steps, chains, seed) +
              slow_scale * testing::autoregressive_series(slow, steps, chains, seed + 1000),
          exact};
}

// Every reported interval holds the estimator's own band and the long batch means' χ² interval, whose batches
// reach long_batch_in_cutoffs times the monotone sequence's last lag; on a slow tail the lag windows cut off, the
// joined interval holds the exact τ where the adaptive window's band does not (docs/algorithms/mixing-metrics.md
// §6.2.1).
TEST(MixingDiagnostics, EveryIntervalHoldsItsBandAndTheLongBatchesInterval) {
  const FastPlusSlow series = fast_plus_slow(20000, 16, 41);
  const MixingDiagnostics diagnostics = mixing_diagnostics(series.traces);
  const IntegratedTimeEstimate& monotone = diagnostics.recommended();
  const Eigen::Index batch = long_batch_size(20000, monotone.cutoff);
  EXPECT_EQ(diagnostics.long_batch_means.cutoff, batch);
  EXPECT_EQ(diagnostics.long_batch_means.time, batch_means_integrated_time(series.traces, batch).time);
  for (const IntegratedTimeEstimate& estimate : diagnostics.estimates) {
    SCOPED_TRACE(estimate.method);
    EXPECT_EQ(estimate.lower, std::fmin(estimate.band_lower, diagnostics.long_batch_means.lower));
    EXPECT_EQ(estimate.upper, std::fmax(estimate.band_upper, diagnostics.long_batch_means.upper));
  }
  const IntegratedTimeEstimate& window = diagnostics.estimates[1];
  ASSERT_EQ(window.method, "adaptive_window");
  EXPECT_LT(window.band_upper, series.exact_time) << "the band holds the exact τ: the case tests nothing";
  EXPECT_LE(window.lower, series.exact_time);
  EXPECT_GE(window.upper, series.exact_time);
}

// Batches shorter than min_batch_in_sequence_reach × the lag the monotone sequence reached warn, whatever their own
// interval says: on a slow tail (φ = 0.995, τ_exp ≈ 200) the sequence sums past 368 lags, and the default batch of
// ⌊20000^{2/3}⌋ = 736 steps cuts the tail. On a fast AR(1) (φ = 0.5, τ = 3) the sequence stops within 100 lags: no
// warning.
TEST(MixingDiagnostics, BatchMeansShorterThanTheSequencesReachWarn) {
  const MixingDiagnostics slow = mixing_diagnostics(fast_plus_slow(20000, 16, 43).traces);
  const MixingDiagnostics fast = mixing_diagnostics(testing::autoregressive_series(0.5, 20000, 16, 44));
  for (const MixingDiagnostics* diagnostics : {&slow, &fast}) {
    const Eigen::Index reach = diagnostics->recommended().cutoff;
    for (const IntegratedTimeEstimate& estimate : diagnostics->estimates) {
      if (!is_batch_means(estimate)) continue;
      SCOPED_TRACE(estimate.method);
      ASSERT_EQ(estimate.cutoff, 736);
      const bool short_batches = static_cast<double>(estimate.cutoff) < min_batch_in_sequence_reach * reach;
      EXPECT_EQ(short_batches, diagnostics == &slow) << "reach " << reach << ": the case tests nothing";
      EXPECT_EQ(estimate.warning.find("shorter than") != std::string::npos, short_batches) << estimate.warning;
      if (short_batches) {
        EXPECT_FALSE(estimate.trusted);
      }
    }
  }
}

TEST(LongBatchSize, ReachesTheFactorTimesTheCutoffWithinTheChain) {
  EXPECT_EQ(long_batch_size(20000, 10), 736);    // ⌊20000^{2/3}⌋ = 736 > 5 × 10
  EXPECT_EQ(long_batch_size(20000, 1000), 5000);  // 5 × 1000
  EXPECT_EQ(long_batch_size(20000, 1000, 10.0), 10000);
  EXPECT_EQ(long_batch_size(20000, 9999), 10000);  // at most half the chain: two batches
  EXPECT_EQ(long_batch_size(8, 0), 4);
  EXPECT_THROW(long_batch_size(3, 1), InputError);
  EXPECT_THROW(long_batch_size(100, 1, std::nan("")), InputError);
}

// The width check reads each estimator's own band: its relative half width is (band_upper − band_lower)/(2τ̂), and
// an estimate whose band is wider than the rule allows is flagged for it however well it agrees with the rest.
TEST(TrustRule, ReadsTheRelativeHalfWidthOfTheEstimatorsOwnBand) {
  MixingDiagnostics diagnostics = mixing_diagnostics(testing::autoregressive_series(0.5, 20000, 16, 3));
  for (std::size_t k = 0; k < diagnostics.estimates.size(); ++k) {
    const IntegratedTimeEstimate& estimate = diagnostics.estimates[k];
    SCOPED_TRACE(estimate.method);
    ASSERT_GT(estimate.band_lower, 0.0) << "a band end reached 0 and was dropped: the case tests nothing";
    EXPECT_DOUBLE_EQ(diagnostics.signals[k].relative_half_width,
                     (estimate.band_upper - estimate.band_lower) / (2.0 * estimate.time));
  }
  ASSERT_TRUE(diagnostics.recommended().trusted) << diagnostics.recommended().warning;
  const std::size_t monotone = recommended_first(diagnostics.estimates).front();
  const double width = diagnostics.signals[monotone].relative_half_width;
  // Rule 8 reads the same bound against the jackknife over chains (FlagsAnEstimateThatRestsOnOneChain); it is left
  // out here, so that what is checked is the band alone.
  for (TrustSignals& signals : diagnostics.signals) signals.chain_jackknife_half_width = std::nan("");
  // A bound between half the width and the width: the full width fails it, half of it would pass.
  TrustRule rule;
  rule.max_relative_half_width = 0.75 * width;
  apply_trust_rule(diagnostics, rule);
  EXPECT_FALSE(diagnostics.recommended().trusted);
  EXPECT_NE(diagnostics.recommended().warning.find("wider than ±"), std::string::npos)
      << diagnostics.recommended().warning;
  rule.max_relative_half_width = 1.01 * width;
  apply_trust_rule(diagnostics, rule);
  EXPECT_TRUE(diagnostics.recommended().trusted) << diagnostics.recommended().warning;
}

// Rule 8: 1.96 × the delete-a-group jackknife standard error over groups of chains, over τ̂. With 12 chains the
// 8 groups hold 1 or 2 chains ([g·12/8, (g+1)·12/8)), so the pseudo-values' weighting by group size is checked too.
// The estimates without a group are those of the estimators run on the chains kept (mixing_diagnostics combines
// the groups' autocovariances instead: the same to within rounding), but for the rank-normalised one, whose scores
// stay those of the full run.
TEST(ChainJackknife, IsTheJackknifeOfTheEstimatesWithoutEachGroupOfChains) {
  const MatrixD traces = testing::autoregressive_series(0.6, 3000, 12, 17);
  const MatrixD scores = rank_normalise(traces);
  const MixingDiagnostics diagnostics = mixing_diagnostics(traces);
  const Eigen::Index groups = max_jackknife_groups;
  const double n = static_cast<double>(traces.cols());
  std::vector<std::vector<double>> pseudo(diagnostics.estimates.size());
  for (Eigen::Index group = 0; group < groups; ++group) {
    const Eigen::Index first = group * traces.cols() / groups, last = (group + 1) * traces.cols() / groups;
    MatrixD kept(traces.rows(), traces.cols() - (last - first));
    kept << traces.leftCols(first), traces.rightCols(traces.cols() - last);
    MatrixD kept_scores(traces.rows(), kept.cols());
    kept_scores << scores.leftCols(first), scores.rightCols(traces.cols() - last);
    const MixingDiagnostics without = mixing_diagnostics(kept);
    const double size = static_cast<double>(last - first);
    for (std::size_t k = 0; k < pseudo.size(); ++k) {
      const double time_without = diagnostics.estimates[k].method == "rank_normalised"
                                      ? initial_monotone_sequence_integrated_time(kept_scores).time
                                      : without.estimates[k].time;
      pseudo[k].push_back((n * diagnostics.estimates[k].time - (n - size) * time_without) / size);
    }
  }
  for (std::size_t k = 0; k < pseudo.size(); ++k) {
    SCOPED_TRACE(diagnostics.estimates[k].method);
    const VectorD values = Eigen::Map<const VectorD>(pseudo[k].data(), groups);
    const double variance = (values.array() - values.mean()).square().sum() / (groups * (groups - 1.0));
    EXPECT_NEAR(diagnostics.signals[k].chain_jackknife_half_width,
                1.959963984540054 * std::sqrt(variance) / diagnostics.estimates[k].time, 1e-9);
  }
  // The groups run on the team: any thread count gives the same bits.
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const MixingDiagnostics one_thread = mixing_diagnostics(traces);
  omp_set_num_threads(3);
  const MixingDiagnostics three_threads = mixing_diagnostics(traces);
  omp_set_num_threads(threads);
  for (std::size_t k = 0; k < pseudo.size(); ++k)
    EXPECT_EQ(one_thread.signals[k].chain_jackknife_half_width, three_threads.signals[k].chain_jackknife_half_width);
  // Fewer than min_jackknife_chains chains: no jackknife, and the rule does not read it.
  const MixingDiagnostics three = mixing_diagnostics(traces.leftCols(min_jackknife_chains - 1));
  for (const TrustSignals& signals : three.signals) EXPECT_TRUE(std::isnan(signals.chain_jackknife_half_width));
}

// A slow correlation that one chain of 16 shows and the others do not (as a rare metastable excursion on a peaked
// RBM: docs/algorithms/calibration.md §6.7.2): the pooled τ̂ is the average of 15 chains at τ = 3 and one at τ = 199,
// the bands assume every chain alike and stay narrow, and R̂ sees no shift of the mean. Only the jackknife over
// chains sees that the estimate rests on one chain. Homogeneous chains: the jackknife width is of the band's size.
TEST(TrustRule, FlagsAnEstimateThatRestsOnOneChain) {
  MatrixD traces = testing::autoregressive_series(0.5, 20000, 16, 3);
  const double slow = 0.99;
  // The slow chain with the others' stationary variance 1/(1 − 0.5²).
  traces.col(5) = testing::autoregressive_series(slow, 20000, 1, 4).col(0) *
                  std::sqrt((1.0 - slow * slow) / (1.0 - 0.25));
  const MixingDiagnostics diagnostics = mixing_diagnostics(traces);
  EXPECT_LT(diagnostics.potential_scale_reduction, TrustRule{}.max_potential_scale_reduction);
  for (std::size_t k = 0; k < diagnostics.estimates.size(); ++k) {
    SCOPED_TRACE(diagnostics.estimates[k].method);
    EXPECT_GT(diagnostics.signals[k].chain_jackknife_half_width, TrustRule{}.max_relative_half_width);
    EXPECT_FALSE(diagnostics.estimates[k].trusted);
    EXPECT_NE(diagnostics.estimates[k].warning.find("rests on a few chains"), std::string::npos)
        << diagnostics.estimates[k].warning;
  }
  // Only rule 8 flags the recommended estimate: without the jackknife signal it would be trusted.
  MixingDiagnostics without_rule = diagnostics;
  for (TrustSignals& signals : without_rule.signals) signals.chain_jackknife_half_width = std::nan("");
  apply_trust_rule(without_rule, TrustRule{});
  EXPECT_TRUE(without_rule.recommended().trusted) << without_rule.recommended().warning;

  const MixingDiagnostics alike = mixing_diagnostics(testing::autoregressive_series(0.5, 20000, 16, 3));
  for (std::size_t k = 0; k < alike.estimates.size(); ++k) {
    SCOPED_TRACE(alike.estimates[k].method);
    EXPECT_LT(alike.signals[k].chain_jackknife_half_width, 3.0 * alike.signals[k].relative_half_width);
    EXPECT_EQ(alike.estimates[k].warning.find("rests on a few chains"), std::string::npos);
  }
}

// With superchains the rule reads nested R̂ and says so.
TEST(TrustRule, ReadsNestedRhatForSuperchains) {
  MixingDiagnostics diagnostics = mixing_diagnostics(testing::autoregressive_series(0.5, 20000, 16, 3));
  ASSERT_TRUE(diagnostics.recommended().trusted) << diagnostics.recommended().warning;
  use_nested_potential_scale_reduction(diagnostics, 1.2, TrustRule{});
  EXPECT_FALSE(diagnostics.recommended().trusted);
  EXPECT_NE(diagnostics.recommended().warning.find("nested R̂ = 1.2 > 1.01: the superchains disagree"),
            std::string::npos)
      << diagnostics.recommended().warning;
  use_nested_potential_scale_reduction(diagnostics, 1.001, TrustRule{});
  EXPECT_TRUE(diagnostics.recommended().trusted) << diagnostics.recommended().warning;
}

TEST(MixingDiagnostics, IntervalEndsStayWithinTheRangeOfTau) {
  MatrixD one_constant = testing::autoregressive_series(0.9, 200, 2, 8);
  one_constant.col(1).setConstant(0.5);
  for (const MatrixD& traces : {testing::autoregressive_series(0.9, 12, 1, 4), one_constant}) {
    const MixingDiagnostics diagnostics = mixing_diagnostics(traces);
    int without_lower_end = 0;
    for (const IntegratedTimeEstimate& estimate : diagnostics.estimates) {
      SCOPED_TRACE(estimate.method);
      EXPECT_FALSE(estimate.lower <= 0.0) << estimate.lower;
      EXPECT_FALSE(estimate.upper <= 0.0) << estimate.upper;
      without_lower_end += std::isfinite(estimate.time) && std::isnan(estimate.lower);
    }
    EXPECT_GT(without_lower_end, 0) << "no band reached 0: the case tests nothing";
  }
}

}  // namespace
}  // namespace rbmix::analysis
