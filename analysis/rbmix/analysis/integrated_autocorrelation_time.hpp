#pragma once
// Integrated autocorrelation time τ = Σ_{Δt=−∞}^{∞} R(Δt) = 1 + 2 Σ_{Δt≥1} R(Δt) (003 §4.3 eq. 17): the variance
// of a mean over N consecutive states is τ Var(f)/N, so τ steps are worth one independent sample.
// Seven estimators from the traces of autocorrelation.hpp (one row per step, one column per chain), each with a
// 95 % interval [lower, upper] (docs/algorithms/mixing-metrics.md §6):
//   autoregressive             — AR(p) by Yule–Walker, p by AIC (at least 1), τ = (1 − φᵀρ)/(1 − Σφ)², where ρ is the
//                                model's autocorrelation at lags 1..p (equal to the sample one for Yule–Walker).
//                                As R's ar.yw + SamplerCompare's ar.act, which 003 used; max order min(N−1, 10 log10
//                                N). Interval: delta method on the asymptotic covariance of φ̂, (σ̂²/N_total) Γ_p^{-1}.
//   adaptive_window            — Sokal's self-consistent window: the smallest M with M ≥ c τ̂(M), c = 5
//                                (emcee's integrated_time/auto_window). Interval: Var τ̂ ≈ 2(2M+1) τ² / N_total
//                                (Sokal 1997).
//   initial_positive_sequence  — Stan's multi-chain ESS on split chains without the monotone step: τ = S/ESS
//   initial_monotone_sequence  — the same with Geyer's monotone step (Stan's and ArviZ's ess_mean;
//                                convergence_diagnostics.hpp). Interval: Sokal's variance with M = the last lag kept.
//   rank_normalised            — S / bulk-ESS (Vehtari et al. 2021): τ of the rank-normalised draws, which equals
//                                τ of f only for a monotone transform-invariant chain; robust to heavy tails.
//   batch_means                — a = ⌊N/b⌋ batches of b = ⌊N^{2/3}⌋ steps per chain: τ = b Var(batch means)/Var(f)
//                                (Flegal & Jones 2010). Interval: the batch variance is ≈ σ² χ²_ν/ν, ν = C(a−1).
//   overlapping_batch_means    — every window of b steps (Meketon & Schmeiser 1984); its variance is 2/3 of the
//                                batch means' (ν = 1.5 C(a−1)).
// The batch-means estimators sum no lag window and are the independent cross-check of the others.
// Every estimate's reported interval [lower, upper] is its own band joined with the χ² interval of batch means over
// long batches, b ≥ long_batch_in_cutoffs × the monotone sequence's last lag (long_batch_size): the band holds the
// estimator's noise, the long batches what its assumptions miss — a tail cut off beyond its window, the negative
// lags of a non-reversible (flip-the-state) chain that a positive sequence drops. docs/algorithms/mixing-metrics.md
// §6.2.1; the calibration of §6.7 chose the construction and the factor. Every estimate carries its own warning (a fit
// at its largest order, a window or sequence that reached the end of the chain, a constant trace); the trust rule
// (trust_verdict) adds the checks that see slow tails.
#include <Eigen/Core>
#include <limits>
#include <string>
#include <vector>

#include "rbmix/analysis/autocorrelation.hpp"
#include "rbmix/core/types.hpp"

namespace rbmix::analysis {

struct IntegratedTimeEstimate {
  std::string method;                                      // one of the seven names above
  double time = std::numeric_limits<double>::quiet_NaN();  // τ̂
  double lower = std::numeric_limits<double>::quiet_NaN();  // 95 % interval; NaN where the estimate is undefined
  double upper = std::numeric_limits<double>::quiet_NaN();
  Eigen::Index cutoff = 0;  // the AR order, the window M, the last lag summed, or the batch size
  bool trusted = false;
  std::string warning;  // why it is not trusted; empty when trusted
  // The estimator's own 95 % band, before the long batch means' interval joined it (the header's comment); NaN where
  // undefined. [lower, upper] holds [band_lower, band_upper].
  double band_lower = std::numeric_limits<double>::quiet_NaN();
  double band_upper = std::numeric_limits<double>::quiet_NaN();
};

// The long batches are at least this many times the monotone sequence's last lag T (its reach into the
// autocorrelation; docs/algorithms/mixing-metrics.md §6.2.1), chosen by the calibration (§6.7).
inline constexpr double long_batch_in_cutoffs = 5.0;
// The long batches' size for chains of `steps` steps and a sequence cut at lag `cutoff`: ⌈long_batch_in_cutoffs·T⌉,
// at least the default batch ⌊N^{2/3}⌋, at most N/2 (two batches per chain).
Eigen::Index long_batch_size(Eigen::Index steps, Eigen::Index cutoff,
                             double batch_in_cutoffs = long_batch_in_cutoffs);

// A batch-means estimate warns (its own warning, so that the rule flags it) when its batches are shorter than this
// many times the monotone sequence's last lag T: the sequence still found the chain correlated at lag T, and batches
// shorter than that cut the slow correlation out of the batch variance however narrow their χ² interval is
// (docs/algorithms/mixing-metrics.md §6.6). Chosen by the calibration (docs/algorithms/calibration.md §6.7.2): the
// largest factor of {1, 2, 3, 5} that flagged no more of the batch means' close estimates than no such check did.
inline constexpr double min_batch_in_sequence_reach = 2.0;

// The jackknife over chains of rule 8 (docs/algorithms/mixing-metrics.md §6.6): it needs at least this many chains,
// and leaves out one of at most max_jackknife_groups groups of consecutive chains at a time, so that its cost is at
// most that many more evaluations of every estimator whatever the number of chains.
inline constexpr Eigen::Index min_jackknife_chains = 4;
inline constexpr Eigen::Index max_jackknife_groups = 8;

// Sokal's window factor c (emcee's default; Sokal suggests 4–10).
inline constexpr double default_window_factor = 5.0;

IntegratedTimeEstimate autoregressive_integrated_time(const TraceAutocovariance& traces);
IntegratedTimeEstimate adaptive_window_integrated_time(const TraceAutocovariance& traces,
                                                       double window_factor = default_window_factor);
// Both need at least 4 steps per chain (the split halves must have 2).
IntegratedTimeEstimate initial_positive_sequence_integrated_time(const MatrixD& traces);
IntegratedTimeEstimate initial_monotone_sequence_integrated_time(const MatrixD& traces);
IntegratedTimeEstimate rank_normalised_integrated_time(const MatrixD& traces);
// batch_size 0: ⌊N^{2/3}⌋. Needs at least 2 batches per chain.
IntegratedTimeEstimate batch_means_integrated_time(const MatrixD& traces, Eigen::Index batch_size = 0);
IntegratedTimeEstimate overlapping_batch_means_integrated_time(const MatrixD& traces, Eigen::Index batch_size = 0);

// The trust rule (docs/algorithms/mixing-metrics.md §6.6). An estimate is trusted when its method raised no warning and
//   R̂ ≤ max_potential_scale_reduction              (the chains agree: Vehtari et al.'s 1.01),
//   N ≥ min_length_in_times τ̂ per chain            (emcee's 50),
//   (upper − lower)/(2τ̂) ≤ max_relative_half_width (its own interval is narrow),
//   |τ̂ − τ̂_ref|/√(se² + se_ref²) ≤ max_disagreement for the batch-means cross-checks τ̂_ref (for a batch-means
//                                                    estimate: the initial monotone sequence), se from the intervals,
//   b ≥ min_batch_in_times τ̂ for a batch-means estimate (its bias is of order τ̂/b),
//   1.96 × the jackknife standard error over groups of chains, over τ̂, ≤ max_relative_half_width (the estimate
//                                                    does not rest on a few chains: rule 8 of §6.6).
// With superchains (many short chains, several started from one state) the R̂ threshold applies to nested R̂
// instead (use_nested_potential_scale_reduction).
// The last three thresholds are chosen by `rbmix experiment estimator-calibration` (docs/algorithms/calibration.md
// §6.7).
struct TrustRule {
  double max_potential_scale_reduction = 1.01;
  double min_length_in_times = 50.0;
  double max_relative_half_width = 0.3;
  double max_disagreement = 2.5;
  double min_batch_in_times = 10.0;
  // Throws InputError naming the threshold that is not positive.
  void validate() const;
};

// What the rule looks at, per estimate; NaN where undefined (a constant trace, a single chain's R̂ of < 4 steps).
struct TrustSignals {
  std::string method_warning;  // the estimator's own
  double potential_scale_reduction = 0.0;
  double length_in_times = 0.0;  // N / τ̂
  double relative_half_width = 0.0;
  double disagreement = 0.0;  // the largest over the references; 0 without one
  double batch_in_times = std::numeric_limits<double>::quiet_NaN();  // b / τ̂ of a batch-means estimate; else NaN
  // 1.96 × the delete-a-group jackknife standard error of τ̂ over groups of chains, over τ̂; NaN with fewer than
  // min_jackknife_chains chains.
  double chain_jackknife_half_width = std::numeric_limits<double>::quiet_NaN();
  bool nested = false;  // potential_scale_reduction is nested R̂ (use_nested_potential_scale_reduction)
};

// Empty when `signals` pass `rule`; otherwise the reasons, separated by "; ".
std::string trust_verdict(const TrustSignals& signals, const TrustRule& rule);

// Every estimator on the same traces, the multi-chain diagnostics, and the trust verdicts.
struct MixingDiagnostics {
  Eigen::Index steps = 0;
  Eigen::Index chains = 0;
  double potential_scale_reduction = 0.0;  // rank-normalised split R̂
  double bulk_effective_sample_size = 0.0;
  double tail_effective_sample_size = 0.0;
  // Batch means over long batches (long_batch_size): the interval every estimate's interval holds.
  IntegratedTimeEstimate long_batch_means;
  std::vector<IntegratedTimeEstimate> estimates;  // in the order of the header's list
  std::vector<TrustSignals> signals;              // one per estimate
  // The estimate docs/algorithms/calibration.md §6.7's calibration supports as the headline.
  const IntegratedTimeEstimate& recommended() const;
};

// The method `recommended()` returns.
inline constexpr const char* recommended_integrated_time_method = "initial_monotone_sequence";

// The name a table shows for a method: the method, and for rank_normalised what it measures, "rank_normalised (tau
// of the ranks)": τ of Φ^{-1}(F̂(x)), another function of the state than x (docs/algorithms/mixing-metrics.md §6.2), so
// that it is not read beside the others as an estimate of τ of the trace.
std::string estimator_label(const std::string& method);

// The indices of `estimates` with the recommended method's first, the others in their order: the order in which
// tables show them (the headline, then the others beside it).
std::vector<std::size_t> recommended_first(const std::vector<IntegratedTimeEstimate>& estimates);

// The shortest chains mixing_diagnostics takes: the sequence estimators and R̂ split each chain into halves, and
// Stan's ESS needs 4 steps in each.
inline constexpr Eigen::Index min_mixing_steps = 8;

// Throws InputError for traces of fewer than min_mixing_steps steps. Free of the traces' scale and offset
// (traces_in_unit_range). An interval end outside the range of τ (at or below 0, where a normal band around a
// small τ̂ reaches) is reported as none (NaN).
MixingDiagnostics mixing_diagnostics(const MatrixD& traces, const TrustRule& rule = {});
// Re-applies `rule` to diagnostics already computed (the calibration compares rules this way).
void apply_trust_rule(MixingDiagnostics& diagnostics, const TrustRule& rule);
// For chains run in superchains (several chains started from one shared state; convergence_diagnostics.hpp): the
// rule's R̂ check reads the nested R̂ `nested_reduction` instead of R̂, which many short chains fail however well
// they mix (docs/algorithms/mixing-metrics.md §6.5.1), and the rule is re-applied.
void use_nested_potential_scale_reduction(MixingDiagnostics& diagnostics, double nested_reduction,
                                          const TrustRule& rule);

// mixing_diagnostics(traces).estimates.
std::vector<IntegratedTimeEstimate> integrated_autocorrelation_times(const MatrixD& traces);

}  // namespace rbmix::analysis
