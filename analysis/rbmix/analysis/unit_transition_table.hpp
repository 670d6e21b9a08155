#pragma once
// The per-unit transition probabilities of one layer update, for every state of the other layer
// (docs/algorithms/operators.md §2): P(next = 1 | x, s) for s = 0 and s = 1, with x the unit's total input (times β
// when tempered). Units of a layer are conditionally independent given the other layer, so these tables determine the
// layer operators K_h, K_v and the sweep K = K_h K_v completely; the dense builder, the matrix-free operator and
// the structural graph all read them.
//
// Both tables come from the unit-rule kernel (unit_rule_kernel.hpp) — the very code the batched sampler runs — on
// inputs formed by BasicRbm::layer_inputs, so what is analysed exactly is what samples. The structural tables say
// which transitions the rule makes impossible: their entries are exactly 0 or 1 where the rule is deterministic
// whatever the size of |x|, never because of floating-point underflow (a Gibbs probability σ(50) rounds to 1, but
// is structurally below 1).
#include <cstdint>

#include "rbmix/analysis/state_space.hpp"
#include "rbmix/sampling/unit_rule_kernel.hpp"

namespace rbmix::analysis {

struct UnitTransitionTable {
  MatrixD from_zero;  // (states of the other layer) × (units of this layer): P(next = 1 | s = 0)
  MatrixD from_one;   // P(next = 1 | s = 1)

  // P(unit goes from state `from` to state `to`) given the other layer's state.
  double probability(std::uint64_t other_layer_state, int unit, int from, int to) const {
    const auto row = static_cast<Eigen::Index>(other_layer_state);
    const double one = from == 0 ? from_zero(row, unit) : from_one(row, unit);
    return to == 1 ? one : 1.0 - one;
  }
  // P(every unit of the layer goes from `from` to `to`) = the product over units (conditional independence).
  double layer_probability(std::uint64_t other_layer_state, std::uint64_t from, std::uint64_t to) const;
  int units() const { return static_cast<int>(from_zero.cols()); }
};

// β·(total input) of every unit of `layer` for every state of the other layer in index order (one row per state),
// exactly as BatchedChains forms them. Validates the RBM and β ≥ 0.
MatrixD every_layer_input(const Rbm& rbm, Layer layer, double inverse_temperature);

// The table of `layer` for the RBM under `rule` (any rule: a built-in one, UnitRule, or a user's own) at inverse
// temperature β ≥ 0.
template <KernelUnitRule Rule>
UnitTransitionTable unit_transition_table(const Rbm& rbm, const Rule& rule, Layer layer,
                                          double inverse_temperature = 1.0, Evaluation evaluation = Evaluation::exact) {
  // The inputs and the rule's evaluation are those of BatchedChains, to the bit.
  const MatrixD inputs = every_layer_input(rbm, layer, inverse_temperature);
  const MatrixD zeros = MatrixD::Zero(inputs.rows(), inputs.cols());
  const MatrixD ones = MatrixD::Ones(inputs.rows(), inputs.cols());
  UnitTransitionTable table;
  layer_probabilities(rule, evaluation, inputs, zeros, table.from_zero);
  layer_probabilities(rule, evaluation, inputs, ones, table.from_one);
  return table;
}

// The built-in rules' tables are compiled once, in the library.
extern template UnitTransitionTable unit_transition_table(const Rbm&, const UnitRule&, Layer, double, Evaluation);

}  // namespace rbmix::analysis
