#pragma once
// The sweep of a rule whose next state ignores the current one (Gibbs) reduced to a chain on one layer
// (docs/algorithms/operators.md §2.5). The sweep draws the hidden layer given v, then the visible layer given the new h
// (sweep_operator.hpp), so with Q(v, h) = p(h | v) and R(h, v) = p(v | h)
//   K((v, h), (v′, h′)) = Q(v, h′) R(h′, v′),
// which does not depend on h. Hence K^t = S V^{t−1} T (t ≥ 1), where S lifts a function of v to the joint states,
// (T f)(v) = Σ_{h′} Q(v, h′) Σ_{v′} R(h′, v′) f(v′, h′) and V = Q R is the chain on v; likewise K^t = A H^{t−1} B
// through H = R Q, the chain on h. K, V and H have the same nonzero eigenvalues, so the smaller of V and H
// (2^min(m, n) states) gives the SLEM and the exact τ of K, which has 2^{m+n} states, by dense linear algebra.
//
// Both reduced chains are reversible: D_v^{1/2} V D_v^{−1/2} = M Mᵀ and D_h^{1/2} H D_h^{−1/2} = Mᵀ M with
// M(v, h) = √(p(h | v) p(v | h)), which needs neither π nor Z; their eigenvalues are real and in [0, 1].
#include <algorithm>
#include <optional>

#include "rbmix/analysis/slem.hpp"
#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/unit_transition_table.hpp"

namespace rbmix::analysis {

// Largest reduced layer taken through the dense route: 2^12 states, a symmetric eigenvalue problem and an LU
// solve of tens of seconds, where the matrix-free route on the 2^{m+n} joint states takes far longer.
inline constexpr int max_reduced_chain_units = 12;

class FactorisedSweep {
 public:
  // Whether the sweep of these exact tables factorises: every unit's next state ignores its current one
  // (P(next = 1 | s = 0) = P(next = 1 | s = 1) exactly, in both layers).
  static bool factorises(const UnitTransitionTable& hidden, const UnitTransitionTable& visible);

  // Throws InputError unless the tables fit the state space and factorise.
  FactorisedSweep(const JointStateSpace& space, const UnitTransitionTable& hidden, const UnitTransitionTable& visible);
  template <KernelUnitRule Rule>
  FactorisedSweep(const Rbm& rbm, const Rule& rule, double inverse_temperature = 1.0)
      : FactorisedSweep(JointStateSpace(rbm), unit_transition_table(rbm, rule, Layer::hidden, inverse_temperature),
                        unit_transition_table(rbm, rule, Layer::visible, inverse_temperature)) {}

  // The layer the reduced chain lives on: the smaller one (visible on a tie).
  Layer reduced_layer() const { return space_.n_hidden() < space_.n_visible() ? Layer::hidden : Layer::visible; }
  int reduced_units() const { return std::min(space_.n_visible(), space_.n_hidden()); }
  // V(v, v′) = Σ_h p(h | v) p(v′ | h), or H(h, h′) = Σ_v p(v | h) p(h′ | v): rows sum to 1.
  MatrixD reduced_chain() const;

  // The SLEM of K: max |μ| over the eigenvalues of the symmetrised reduced chain other than the one nearest 1.
  // method "through the hidden chain" or "through the visible chain".
  SlemResult slem() const;

  // τ_f of a function f of the joint state (index order of JointStateSpace) under K with stationary π, by one LU
  // solve on the reduced chain; nothing when that chain is numerically non-ergodic (try_fundamental_solve).
  std::optional<double> try_integrated_autocorrelation_time(const VectorD& stationary, const VectorD& function) const;

 private:
  JointStateSpace space_;
  // Both 2^m × 2^n, the layout of a joint vector (x = v + 2^m h) read as a column-major matrix.
  Eigen::MatrixXd hidden_given_visible_;  // p(h | v)
  Eigen::MatrixXd visible_given_hidden_;  // p(v | h)
};

}  // namespace rbmix::analysis
