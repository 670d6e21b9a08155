#pragma once
// Autocorrelation of Markov chain traces (003 §4.3 eq. 16; docs/algorithms.md §6).
// A trace set is a matrix with one row per time step and one column per chain: all chains have the same length
// and are independent runs of the same operator. The autocovariance of one series x_0..x_{N−1} is the biased
// estimate γ̂(Δt) = (1/N) Σ_{t<N−Δt} (x_t − x̄)(x_{t+Δt} − x̄), computed by FFT with zero padding to at least twice
// the length, so no lag wraps around. Several chains are combined by averaging their autocovariances, each about
// its own mean (emcee's autocorr.integrated_time averages over walkers; Stan's effective sample size averages
// the chains' autocovariances too).
#include "rbmix/core/types.hpp"

namespace rbmix::analysis {

// γ̂(0), …, γ̂(N−1) of one series (N ≥ 2).
VectorD autocovariance(const VectorD& series);

// The average over the chains (columns) of each chain's γ̂(0..N−1).
VectorD mean_autocovariance(const MatrixD& traces);

// What every estimator of the integrated autocorrelation time needs, computed once (one FFT per chain).
struct TraceAutocovariance {
  VectorD mean_autocovariance;  // mean over chains of γ̂_c(0..N−1)
  VectorD chain_means;          // x̄_c
  Eigen::Index steps = 0;       // N, per chain
  Eigen::Index chains = 0;
};
TraceAutocovariance trace_autocovariance(const MatrixD& traces);

// R̂(Δt) = mean γ̂(Δt) / mean γ̂(0) for Δt = 0..N−1. Throws InputError if every chain is constant, where the
// autocorrelation is undefined.
VectorD autocorrelation(const MatrixD& traces);

// Throws InputError naming `what` unless the traces hold at least two steps, one chain, and only finite values.
void validate_traces(const MatrixD& traces, const char* what);

}  // namespace rbmix::analysis
