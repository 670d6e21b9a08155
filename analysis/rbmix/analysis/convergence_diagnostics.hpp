#pragma once
// Multi-chain convergence diagnostics as Stan and ArviZ compute them (Vehtari, Gelman, Simpson, Carpenter & Bürkner
// 2021; docs/algorithms/mixing-metrics.md §6.5). Traces are steps × chains (autocorrelation.hpp), S = steps · chains
// draws.
//   split_chains            — each chain cut into its first and second half (an odd middle draw is dropped), so
//                             that a drift inside a chain shows up as a difference between chains.
//   rank_normalise          — z = Φ^{-1}((r − 3/8)/(S + 1/4)), r the rank over all draws with ties averaged
//                             (Blom's offset; Vehtari et al. eq. 14).
//   potential_scale_reduction — R̂ = √(var⁺/W), var⁺ = (N−1)/N W + B/N, W the mean within-chain variance, B/N the
//                             variance of the chain means (Gelman et al. BDA3 §11.4).
//   rank_normalised_split_potential_scale_reduction — the larger of R̂ on the rank-normalised split chains and on
//                             the rank-normalised folded ones |x − median| (Vehtari et al. §4.2): the bulk and the
//                             scale of the chains must both agree. It is 1 for identical chains and grows with
//                             the share of variance between them; above 1.01 the chains have not mixed.
//   effective_sample_size   — Stan's ESS (Vehtari et al. §3.2, eqs. 10–11): the chains' autocovariances are
//                             combined into ρ̂_t = 1 − (W − mean_c γ̂_c(t))/var⁺, summed in adjacent pairs by
//                             Geyer's (1992) initial positive sequence, the pairs made non-increasing (initial
//                             monotone sequence), τ̂ = −1 + 2 Σ_{t<T} ρ̂_t + ρ̂_T (the last even lag's
//                             half-weight reduces the variance for antithetic chains), floored at 1/log10 S;
//                             ESS = S/τ̂.
//   bulk / tail ESS         — ESS of the rank-normalised split chains, and the smaller ESS of the indicators
//                             I(x ≤ q₀.₀₅), I(x ≤ q₀.₉₅) on split chains (Vehtari et al. §4.3).
//   nested_potential_scale_reduction — nR̂ = √(1 + B̂_ν/Ŵ_ν) of chains grouped into K superchains of equal size,
//                             the chains of a superchain started from one shared state (Margossian, Hoffman,
//                             Sountsov, Riou-Durand, Vehtari & Gelman 2024, eqs. 4–8): B̂_ν the variance of the
//                             superchain means, Ŵ_ν the mean over superchains of the variance of their chain means
//                             plus their mean within-chain variance. Many short chains can show it near 1 where each
//                             chain is too short for R̂: it asks that the superchains forgot their starts.
#include <Eigen/Core>
#include <optional>
#include <vector>

#include "rbmix/analysis/autocorrelation.hpp"
#include "rbmix/core/types.hpp"

namespace rbmix::analysis {

// 2N_half × … : column c of the result is the first half of chain c for c < chains, the second half of chain c −
// chains otherwise. Needs at least 4 steps.
MatrixD split_chains(const MatrixD& traces);

// Same shape as `traces`, every draw replaced by its rank-normalised score.
MatrixD rank_normalise(const MatrixD& traces);

// Classic R̂ of the given chains (no split, no ranks); 1 when every draw is equal. Needs 2 chains of ≥ 2 steps.
double potential_scale_reduction(const MatrixD& traces);

// Vehtari et al.'s R̂ (what Stan and ArviZ report as rhat).
double rank_normalised_split_potential_scale_reduction(const MatrixD& traces);

// Nested R̂ of the given chains (no split, no ranks); superchain_of_chain[c] ∈ {0 … K − 1} names chain c's
// superchain, K ≥ 2, each superchain with the same number of chains (InputError otherwise). 1 when every draw is
// equal.
double nested_potential_scale_reduction(const MatrixD& traces, const std::vector<Eigen::Index>& superchain_of_chain);
// Nested R̂ as ArviZ's rhat_nested computes it (method "rank"): the larger of nR̂ on the rank-normalised split
// chains and on the rank-normalised folded ones, each half of a chain in its chain's superchain.
double rank_normalised_split_nested_potential_scale_reduction(const MatrixD& traces,
                                                              const std::vector<Eigen::Index>& superchain_of_chain);
// The labels of K superchains of consecutive chains: chain c is in superchain c / (chains / K). InputError when
// K < 2 or K does not divide the chains.
std::vector<Eigen::Index> consecutive_superchains(Eigen::Index chains, Eigen::Index superchains);

// The result of Stan's ESS: the autocorrelation time τ̂ = S/ESS and the last lag T the sequence kept.
struct SequenceEstimate {
  double effective_sample_size = 0.0;
  double time = 0.0;        // S / ESS
  Eigen::Index cutoff = 0;  // T: ρ̂_0..ρ̂_T entered the sum
  bool terminated = false;  // a pair sum turned negative before the end of the chains
  bool monotone = true;     // whether the monotone step was applied (false: initial positive sequence only)
};

// Stan's ESS of the given chains as they are (no split, no ranks). With monotone = false, the initial positive
// sequence alone. A constant trace gives ESS = S, τ = 1 (Stan's convention). Needs at least 4 steps.
SequenceEstimate effective_sample_size(const MatrixD& traces, bool monotone = true);
// Both sequences of the same chains from one autocovariance: the initial positive (monotone = false) and the
// initial monotone one. The autocovariance is computed up to `initial_lag` (0: first_largest_lag, autocorrelation.hpp)
// and grown while the sequences would read beyond it; the result does not depend on it beyond rounding.
struct SequenceEstimates {
  SequenceEstimate positive;
  SequenceEstimate monotone;
};
SequenceEstimates effective_sample_sizes(const MatrixD& traces, Eigen::Index initial_lag = 0);
// Both sequences from the autocovariance of split chains computed already (the chains need not be constant);
// nullopt where the sequences would read a lag beyond those it holds (compute more, grown_lag).
std::optional<SequenceEstimates> sequence_estimates(const TraceAutocovariance& split_covariance);

// ESS of the rank-normalised split chains (ArviZ ess(method="bulk")).
SequenceEstimate bulk_effective_sample_size(const MatrixD& traces);
// min over q ∈ {0.05, 0.95} of the ESS of I(x ≤ quantile_q) on split chains (ArviZ ess(method="tail")).
double tail_effective_sample_size(const MatrixD& traces);

// The three above of the same traces, which share the split chains and their rank-normalised scores: the same
// numbers, each computed once (the ranks sort every draw, and a chain of 10^8 steps makes every copy count).
struct ConvergenceDiagnostics {
  double potential_scale_reduction = 0.0;  // rank_normalised_split_potential_scale_reduction
  SequenceEstimate bulk;                   // bulk_effective_sample_size
  double tail_effective_sample_size = 0.0;
};
ConvergenceDiagnostics convergence_diagnostics(const MatrixD& traces);

}  // namespace rbmix::analysis
