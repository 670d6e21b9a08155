#pragma once
// The exact integrated autocorrelation time of a function f of the state under a chain K with stationary π
// (ALGORITHMS.md §2), the ground truth for the estimators of §6:
//   τ_f = Σ_{t=−∞}^{∞} ρ_f(|t|) = 2 ⟨f̄, Z f̄⟩_π / Var_π f − 1,   f̄ = f − E_π f,   Z = (I − K + 1πᵀ)^{−1},
// because Z f̄ = Σ_{t≥0} K^t f̄ when π f̄ = 0, and ⟨f̄, K^t f̄⟩_π is the lag-t autocovariance at stationarity
// (for any K, reversible or not). Requires an ergodic K (else I − K + 1πᵀ is singular) and Var_π f > 0.
#include "rbmix/core/types.hpp"

namespace rbmix::analysis {

double exact_integrated_autocorrelation_time(const MatrixD& transition, const VectorD& stationary,
                                             const VectorD& function);

}  // namespace rbmix::analysis
