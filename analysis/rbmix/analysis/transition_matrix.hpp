#pragma once
// Dense exact transition matrices over all 2^{m+n} joint states in JointStateSpace order (docs/algorithms.md §2).
// Row-stochastic: K(x, y) = P(x → y).
//   K_h(x, y) = [v_y = v_x] Π_i P(h_i → h'_i | input of hidden unit i given v_x)
//   K_v(x, y) = [h_y = h_x] Π_j P(v_j → v'_j | input of visible unit j given h_x)
//   K = K_h K_v, and since the intermediate state of a sweep is z = (v_x, h_y), every entry is one product:
//   K(x, y) = K_h(x, z) K_v(z, y) — no sum over z is needed.
// The promises (checked for every rule by rbmix/verify/operator_invariants): rows sum to 1; π ∝ e^{−βE} is
// stationary; each layer operator satisfies detailed balance; the rule's structural zeros are exact zeros.
#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/unit_transition_table.hpp"

namespace rbmix::analysis {

// Which transitions are possible at all (true where the rule's structural probability is nonzero).
using TransitionPattern = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Assemblers from tables, for callers that already hold them.
MatrixD layer_transition_matrix(const JointStateSpace& space, const UnitTransitionTable& table, Layer layer);
MatrixD sweep_transition_matrix(const JointStateSpace& space, const UnitTransitionTable& hidden,
                                const UnitTransitionTable& visible);

// The structural nonzero pattern of the sweep assembled from structural tables.
TransitionPattern sweep_transition_pattern(const JointStateSpace& space, const UnitTransitionTable& hidden,
                                           const UnitTransitionTable& visible);

// The same from a rule: any rule the kernel applies (a built-in one, UnitRule, or a user's own rule).
// K_h or K_v of `rule` at inverse temperature β.
template <KernelUnitRule Rule>
MatrixD layer_transition_matrix(const Rbm& rbm, const Rule& rule, Layer layer, double inverse_temperature = 1.0) {
  return layer_transition_matrix(JointStateSpace(rbm), unit_transition_table(rbm, rule, layer, inverse_temperature),
                                 layer);
}
// K = K_h K_v of `rule` at inverse temperature β.
template <KernelUnitRule Rule>
MatrixD sweep_transition_matrix(const Rbm& rbm, const Rule& rule, double inverse_temperature = 1.0) {
  return sweep_transition_matrix(JointStateSpace(rbm),
                                 unit_transition_table(rbm, rule, Layer::hidden, inverse_temperature),
                                 unit_transition_table(rbm, rule, Layer::visible, inverse_temperature));
}
// The structural nonzero pattern of K (from the structural tables, so it is exact whatever the magnitudes).
template <KernelUnitRule Rule>
TransitionPattern sweep_transition_pattern(const Rbm& rbm, const Rule& rule, double inverse_temperature = 1.0) {
  return sweep_transition_pattern(
      JointStateSpace(rbm),
      unit_transition_table(rbm, rule, Layer::hidden, inverse_temperature, Evaluation::structural),
      unit_transition_table(rbm, rule, Layer::visible, inverse_temperature, Evaluation::structural));
}

// The modified matrix of 001 §3: A' = (A − λI)/(1 − λ) for 0 ≤ λ ≤ min_x A(x, x), λ < 1. A' keeps every
// stationary distribution of A and maps each eigenvalue μ of A to (μ − λ)/(1 − λ).
MatrixD modified_matrix(const MatrixD& matrix, double lambda);
// Throws InputError unless 0 ≤ λ ≤ min_diagonal and λ < 1.
void validate_modification(double lambda, double min_diagonal);

}  // namespace rbmix::analysis
