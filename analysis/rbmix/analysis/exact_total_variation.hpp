#pragma once
// The exact distance of a chain from its target after t steps (docs/algorithms/convergence-bounds.md §6.8):
//   d_TV(π₀Kᵗ, π) = ½ Σ_x |(π₀Kᵗ)(x) − π(x)|,   t = 0 … sweeps,
// by carrying the distribution forward with the adjoint of any transition operator (transition_operator.hpp):
// dense for small spaces, the matrix-free sweep up to 2^max_joint_units states. The truth that every coupling bound
// of a tiny model is set beside.
#include <optional>

#include "rbmix/analysis/start_distribution.hpp"
#include "rbmix/analysis/transition_operator.hpp"
#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix::analysis {

// d_TV(π₀Kᵗ, π) for t = 0 … sweeps (sweeps + 1 entries). Throws InputError unless π₀ and π have the operator's size.
template <TransitionOperator Operator>
VectorD exact_total_variation(const Operator& op, const VectorD& start, const VectorD& stationary,
                              Eigen::Index sweeps) {
  require(start.size() == op.rows() && stationary.size() == op.rows(),
          "exact_total_variation: π₀ and π must have one entry per joint state");
  require(sweeps >= 0, "exact_total_variation: the number of sweeps must not be negative");
  VectorD distances(sweeps + 1);
  VectorD distribution = start;
  VectorD next(distribution.size());
  for (Eigen::Index t = 0;; ++t) {
    distances[t] = 0.5 * (distribution - stationary).lpNorm<1>();
    if (t == sweeps) break;
    op.perform_adjoint_op(distribution.data(), next.data());
    distribution.swap(next);
  }
  return distances;
}

// Largest joint unit count for which rbmix computes the exact distance beside a bound: 2^20 states, the
// matrix-free sweep at O(2^20·20) per step.
inline constexpr int max_exact_distance_units = 20;

// The same for the sweep of `rule` at inverse temperature β on a tiny RBM (at most max_exact_distance_units units),
// matrix-free, from the start distribution `start` to π_β ∝ e^{−βE}; with `modified_sweep` for the whole-sweep
// modified matrix of that sweep (λ = min_x K(x, x), 001 §3).
VectorD exact_total_variation(const Rbm& rbm, const UnitRule& rule, double inverse_temperature,
                              const StartDistribution& start, Eigen::Index sweeps, bool modified_sweep = false);

// t_mix(ε) read from a curve indexed by t = 0, 1, …: the first t at which it is at most ε; nullopt if it never is.
// Both d_TV(π₀Kᵗ, π) and the coupling bound are non-increasing in t, so no later t is above ε again.
std::optional<Eigen::Index> first_time_within(const VectorD& distances, double epsilon);

}  // namespace rbmix::analysis
