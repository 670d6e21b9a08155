#pragma once
// Autocorrelation of Markov chain traces (003 §4.3 eq. 16; docs/algorithms/mixing-metrics.md §6).
// A trace set is a matrix with one row per time step and one column per chain: all chains have the same length
// and are independent runs of the same operator. The autocovariance of one series x_0..x_{N−1} is the biased
// estimate γ̂(Δt) = (1/N) Σ_{t<N−Δt} (x_t − x̄)(x_{t+Δt} − x̄), computed by FFT with zero padding, so no lag wraps
// around. Several chains are combined by averaging their autocovariances, each about its own mean (emcee's
// autocorr.integrated_time averages over walkers; Stan's effective sample size averages the chains' autocovariances
// too).
//
// The estimators read γ̂ only up to a lag of a few autocorrelation times, and a chain long enough to trust is
// fifty or more of them, so γ̂ can be asked for up to a largest lag L: it is then computed block by block (each
// block of steps correlated with itself and the L steps after it by one FFT of about twice L), and the memory beside
// the traces grows with L instead of with the chain (docs/algorithms/mixing-metrics.md §6).
#include <optional>

#include "rbmix/core/types.hpp"

namespace rbmix::analysis {

// γ̂(0), …, γ̂(N−1) of one series (N ≥ 2).
VectorD autocovariance(const VectorD& series);

// The average over the chains (columns) of each chain's γ̂(0..N−1).
VectorD mean_autocovariance(const MatrixD& traces);

// What every estimator of the integrated autocorrelation time needs, computed once (one pass of FFTs per chain).
struct TraceAutocovariance {
  VectorD mean_autocovariance;  // mean over chains of γ̂_c(0..L), L the largest lag computed
  VectorD chain_means;          // x̄_c
  Eigen::Index steps = 0;       // N, per chain
  Eigen::Index chains = 0;
  // L.
  Eigen::Index largest_lag() const { return mean_autocovariance.size() - 1; }
  // Whether every lag up to N − 1 is there.
  bool complete() const { return largest_lag() == steps - 1; }
};
// Every lag.
TraceAutocovariance trace_autocovariance(const MatrixD& traces);
// Lags 0..min(largest_lag, N − 1) (largest_lag ≥ 0): the same numbers to within rounding.
TraceAutocovariance trace_autocovariance(const MatrixD& traces, Eigen::Index largest_lag);

// The largest lag an estimator asks for first, for chains of `steps` steps: a sixty-fourth of the chain (at least
// 4096 lags, at most N − 1). A chain of fifty autocorrelation times or more is long enough for every estimator to
// stop within it; shorter ones ask for 4 times more lags until they stop (grown_lag).
Eigen::Index first_largest_lag(Eigen::Index steps);
// The next largest lag after `largest_lag`: 4 times more, at most N − 1.
Eigen::Index grown_lag(Eigen::Index largest_lag, Eigen::Index steps);

// R̂(Δt) = mean γ̂(Δt) / mean γ̂(0) for Δt = 0..N−1. Throws InputError if every chain is constant, where the
// autocorrelation is undefined.
VectorD autocorrelation(const MatrixD& traces);

// Throws InputError naming `what` unless the traces hold at least two steps, one chain, and only finite values.
void validate_traces(const MatrixD& traces, const char* what);

// Every estimate of docs/algorithms/mixing-metrics.md §6 is free of the traces' scale and offset (each sums squares of
// draws less their means, or ranks them), but the squares of draws far from 1 in magnitude leave the range of a double:
// above about 1e154 they overflow, below about 1e-154 they vanish, and a trace in such units read as constant or gave
// τ̂ from rounding alone. This returns the traces times the power of two that brings the largest |x| into [1/2, 1) —
// exact for every draw above 1e-300 of the largest — where the largest |x| lies outside 2^−400..2^400, and nothing
// otherwise: within those bounds no sum of squares of the centred draws of up to 2^200 draws can overflow, nor can a
// square of a difference as small as the draws' rounding underflow, so traces in common units are estimated as
// they are, to the bit.
std::optional<MatrixD> traces_in_unit_range(const MatrixD& traces);

}  // namespace rbmix::analysis
