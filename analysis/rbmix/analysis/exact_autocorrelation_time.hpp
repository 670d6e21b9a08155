#pragma once
// The exact integrated autocorrelation time of a function f of the state under a chain K with stationary π
// (docs/algorithms/operators.md §2), the ground truth for the estimators of §6:
//   τ_f = Σ_{t=−∞}^{∞} ρ_f(|t|) = 2 ⟨f̄, Z f̄⟩_π / Var_π f − 1,   f̄ = f − E_π f,   Z = (I − K + 1πᵀ)^{−1},
// because Z f̄ = Σ_{t≥0} K^t f̄ when π f̄ = 0, and ⟨f̄, K^t f̄⟩_π is the lag-t autocovariance at stationarity
// (for any K, reversible or not). Requires an ergodic K (else I − K + 1πᵀ is singular) and Var_π f > 0.
#include <cmath>
#include <optional>

#include "rbmix/analysis/transition_operator.hpp"
#include "rbmix/core/types.hpp"

namespace rbmix::analysis {

// Z x = Σ_{t≥0} K^t x for an x with πᵀx = 0, where Z = (I − K + 1πᵀ)^{−1} is the fundamental matrix: one LU solve.
// Nothing when the system is singular or conditioned so badly (reciprocal condition number below machine ε) that
// the solve has no correct digit. The τ below and that of a sweep through one layer (factorised_sweep.hpp) use it.
std::optional<VectorD> try_fundamental_solve(const MatrixD& transition, const VectorD& stationary,
                                             const VectorD& centred);

// Dense: one LU solve of (I − K + 1πᵀ) g = f̄. Throws InputError when the system is singular in double precision.
double exact_integrated_autocorrelation_time(const MatrixD& transition, const VectorD& stationary,
                                             const VectorD& function);
// The same, or nothing when K is numerically non-ergodic: I − K + 1πᵀ singular or conditioned so badly (reciprocal
// condition number below machine ε) that the solve has no correct digit. Large weights do that to a chain that
// is ergodic on paper: transition probabilities round to 0 or 1 and π underflows.
std::optional<double> try_exact_integrated_autocorrelation_time(const MatrixD& transition, const VectorD& stationary,
                                                                const VectorD& function);

struct AutocorrelationSeriesResult {
  double autocorrelation_time = 0.0;
  int terms = 0;           // lags summed
  bool converged = false;  // the last lag's |ρ| fell below the tolerance
};

// Matrix-free, for any transition operator: τ = 1 + 2 Σ_{t≥1} ⟨f̄, K^t f̄⟩_π / Var_π f, one application of K per
// lag, stopping when |ρ(t)| < tolerance (the tail is then about tolerance·SLEM/(1 − SLEM)). Needs only O(N) memory.
template <typename Operator>
AutocorrelationSeriesResult integrated_autocorrelation_time_by_series(const Operator& op, const VectorD& stationary,
                                                                      const VectorD& function, double tolerance = 1e-13,
                                                                      int max_terms = 100000) {
  require(stationary.size() == op.rows() && function.size() == op.rows(),
          "autocorrelation series: π and f must have one entry per state");
  require(tolerance > 0.0 && max_terms > 0, "autocorrelation series: tolerance and max_terms must be positive");
  const VectorD centred = function.array() - stationary.dot(function);
  const double variance = stationary.dot(centred.cwiseProduct(centred));
  require(variance > 0.0, "autocorrelation series: f is constant under π (zero variance)");
  AutocorrelationSeriesResult result;
  result.autocorrelation_time = 1.0;
  VectorD propagated = centred, next(op.rows());
  for (result.terms = 1; result.terms <= max_terms; ++result.terms) {
    op.perform_op(propagated.data(), next.data());
    propagated.swap(next);
    const double correlation = stationary.dot(centred.cwiseProduct(propagated)) / variance;
    result.autocorrelation_time += 2.0 * correlation;
    if (std::abs(correlation) < tolerance) {
      result.converged = true;
      break;
    }
  }
  return result;
}

}  // namespace rbmix::analysis
