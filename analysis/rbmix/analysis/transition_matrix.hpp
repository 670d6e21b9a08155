#pragma once
// Dense exact transition matrices over all 2^{m+n} joint states in JointStateSpace order (docs/algorithms/operators.md
// §2). Row-stochastic: K(x, y) = P(x → y).
//   K_h(x, y) = [v_y = v_x] Π_i P(h_i → h'_i | input of hidden unit i given v_x)
//   K_v(x, y) = [h_y = h_x] Π_j P(v_j → v'_j | input of visible unit j given h_x)
//   K = K_h K_v, and since the intermediate state of a sweep is z = (v_x, h_y), every entry is one product:
//   K(x, y) = K_h(x, z) K_v(z, y) — no sum over z is needed.
// The promises (checked for every rule by rbmix/verify/operator_invariants): rows sum to 1; π ∝ e^{−βE} is
// stationary; each layer operator satisfies detailed balance; the rule's structural zeros are exact zeros.
#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/unit_transition_table.hpp"

#include <cstdint>
#include <string>

namespace rbmix::analysis {

// Which transitions are possible at all (true where the rule's structural probability is nonzero).
using TransitionPattern = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Below 2^10 states a dense sweep takes about a millisecond on one core: threads would cost more than they save.
inline constexpr Eigen::Index parallel_transition_states = Eigen::Index{1} << 10;

// Throws InputError when the joint space is too large for a dense matrix; `what` names the matrix in the message,
// `alternative` (if any) what to use instead.
void require_dense_space(const JointStateSpace& space, const std::string& what, const std::string& alternative = "");

// The assemblers every dense builder shares, from one layer's transition probability:
//   hidden_step(v, h, next_h) = K_h((v, h) → (v, next_h)),  visible_step(h, v, next_v) = K_v((v, h) → (next_v, h)).
template <typename LayerStep>
MatrixD assemble_layer_transition_matrix(const JointStateSpace& space, Layer layer, const LayerStep& step) {
  const auto size = static_cast<Eigen::Index>(space.size());
  MatrixD matrix = MatrixD::Zero(size, size);
  for (std::uint64_t v = 0; v < space.visible_states(); ++v)
    for (std::uint64_t h = 0; h < space.hidden_states(); ++h) {
      const auto from = static_cast<Eigen::Index>(space.index(v, h));
      if (layer == Layer::hidden) {
        for (std::uint64_t next_h = 0; next_h < space.hidden_states(); ++next_h)
          matrix(from, static_cast<Eigen::Index>(space.index(v, next_h))) = step(v, h, next_h);
      } else {
        for (std::uint64_t next_v = 0; next_v < space.visible_states(); ++next_v)
          matrix(from, static_cast<Eigen::Index>(space.index(next_v, h))) = step(h, v, next_v);
      }
    }
  return matrix;
}
// K = K_h K_v with one product per entry (the intermediate state is (v, next_h)); rows in parallel on large spaces.
template <typename HiddenStep, typename VisibleStep>
MatrixD assemble_sweep_transition_matrix(const JointStateSpace& space, const HiddenStep& hidden_step,
                                         const VisibleStep& visible_step) {
  const auto size = static_cast<Eigen::Index>(space.size());
  MatrixD sweep(size, size);
#pragma omp parallel for schedule(static) if (size >= parallel_transition_states)
  for (Eigen::Index x = 0; x < size; ++x) {
    const std::uint64_t v = space.visible_part(static_cast<std::uint64_t>(x));
    const std::uint64_t h = space.hidden_part(static_cast<std::uint64_t>(x));
    for (std::uint64_t next_h = 0; next_h < space.hidden_states(); ++next_h) {
      const double hidden_probability = hidden_step(v, h, next_h);
      for (std::uint64_t next_v = 0; next_v < space.visible_states(); ++next_v)
        sweep(x, static_cast<Eigen::Index>(space.index(next_v, next_h))) =
            hidden_probability * visible_step(next_h, v, next_v);
    }
  }
  return sweep;
}

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
