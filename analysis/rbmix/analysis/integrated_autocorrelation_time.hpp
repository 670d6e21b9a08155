#pragma once
// Integrated autocorrelation time τ = Σ_{Δt=−∞}^{∞} R(Δt) = 1 + 2 Σ_{Δt≥1} R(Δt) (003 §4.3 eq. 17): the variance
// of a mean over N consecutive states is τ Var(f)/N, so τ steps are worth one independent sample.
// Three estimators from the traces of autocorrelation.hpp (one row per step, one column per chain):
//   autoregressive             — AR(p) by Yule–Walker, p by AIC (at least 1), τ = (1 − φᵀρ)/(1 − Σφ)², where ρ is the
//                                model's autocorrelation at lags 1..p (equal to the sample one for Yule–Walker).
//                                As R's ar.yw + SamplerCompare's ar.act, which 003 used; max order min(N−1, 10 log10
//                                N). Band: delta method on the asymptotic covariance of φ̂, (σ̂²/N_total) Γ_p^{-1}.
//   adaptive_window            — Sokal's self-consistent window: the smallest M with M ≥ c τ̂(M), c = 5
//                                (emcee's integrated_time/auto_window). Band: Var τ̂ ≈ 2(2M+1) τ² / N_total (Sokal
//                                1997).
//   initial_monotone_sequence  — Geyer (1992): sums of adjacent pairs Γ_k = ρ_{2k} + ρ_{2k+1} while positive, made
//                                non-increasing; τ = 2 Σ Γ_k − 1, with Stan's multi-chain ρ (which also counts the
//                                spread of the chain means). No band.
// Every estimate says whether it can be trusted: all three require 0 < τ̂ and N ≥ 50 τ̂ per chain (emcee's rule);
// each adds the failure its own method can detect. A constant trace gives τ = NaN, untrusted. Flip-the-state
// chains can be antithetic (ρ(1) near −1): Sokal's window then stops at M = 1 with τ̂ < 0, flagged untrusted,
// while the initial-sequence and AR estimators remain valid.
#include <Eigen/Core>
#include <string>
#include <vector>

#include "rbmix/analysis/autocorrelation.hpp"
#include "rbmix/core/types.hpp"

namespace rbmix::analysis {

struct IntegratedTimeEstimate {
  std::string method;  // "autoregressive", "adaptive_window" or "initial_monotone_sequence"
  double time;         // τ̂
  double lower;        // 95 % band; NaN where the method has none
  double upper;
  Eigen::Index cutoff;  // the AR order, the window M, or the last lag summed
  bool trusted;
  std::string warning;  // why it is not trusted; empty when trusted
};

// A chain is trusted only if it is at least this many τ̂ long (emcee's `tol`).
inline constexpr double minimum_length_in_autocorrelation_times = 50.0;
// Sokal's window factor c (emcee's default; Sokal suggests 4–10).
inline constexpr double default_window_factor = 5.0;

IntegratedTimeEstimate autoregressive_integrated_time(const TraceAutocovariance& traces);
IntegratedTimeEstimate adaptive_window_integrated_time(const TraceAutocovariance& traces,
                                                       double window_factor = default_window_factor);
IntegratedTimeEstimate initial_monotone_sequence_integrated_time(const TraceAutocovariance& traces);

// All three, in the order above, from one autocovariance computation.
std::vector<IntegratedTimeEstimate> integrated_autocorrelation_times(const TraceAutocovariance& traces);
std::vector<IntegratedTimeEstimate> integrated_autocorrelation_times(const MatrixD& traces);

}  // namespace rbmix::analysis
