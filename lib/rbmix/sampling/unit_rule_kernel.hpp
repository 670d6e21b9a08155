#pragma once
// The one element-wise kernel that applies a unit rule to a block of units (docs/algorithms/operators.md §2). The
// batched sampler (one block per chain row), the exact transition tables and the structural tables (one block per
// table) all call it, so each operator is evaluated by the same code wherever it is used.
//
// For a block of `count` contiguous inputs x_k and states s_k the kernel computes the decays d_k for the whole
// block with one vectorised pass into a kept workspace, then p_k = rule.probability_of_one(x_k, s_k, d_k) with
// another, and hands each (k, p_k) to the caller's `use`. The evaluation says what d_k is:
//   exact       d_k = e^{−|x_k|}, the rule's probability;
//   structural  d_k = 1 at x_k = 0 and one interior value otherwise. By the rule contract (unit_rule.hpp) a rule
//               is a rational function of e^{−|x|} per sign of x that is either constantly 0 or 1 or strictly
//               inside (0, 1) on e^{−|x|} ∈ (0, 1), so one interior point reveals which transitions are
//               impossible, never confusing a floating-point underflow (σ(50) rounds to 1) with a structural 1.
// The workspace only grows: once it holds the largest block, applying the kernel allocates nothing.
#include <Eigen/Core>
#include <concepts>

#include "rbmix/core/decay.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/core/types.hpp"
#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix {

// What the kernel applies: one concrete rule (the built-in ones or a user's own), or UnitRule, which holds one of
// the built-in rules and is dispatched once per block. Everything built on the kernel (the exact tables and
// matrices, the structural pattern, the proofs) accepts either.
template <typename Rule>
concept KernelUnitRule = ConcreteUnitRule<Rule> || std::same_as<Rule, UnitRule>;

enum class Evaluation {
  exact,       // the rule's probabilities
  structural,  // 0 or 1 only where the rule is deterministic for every |x| with the same sign
};

// The decays of one block, kept between calls by the caller (one per thread when threads share the work).
template <typename Scalar>
using DecayWorkspace = Eigen::Array<Scalar, 1, Eigen::Dynamic>;

// Any decay in (0, 1) would do for the structural evaluation; 1/2 is exact in binary.
inline constexpr double structural_interior_decay = 0.5;

// p_k for the block, written over the decays in `workspace`; returns the workspace's first entry. The caller that
// draws from the probabilities (the batched sampler) reads them from there.
template <ConcreteUnitRule Rule, typename Scalar>
const Scalar* unit_rule_probabilities(const Rule& rule, Evaluation evaluation, const Scalar* inputs,
                                      const Scalar* states, Eigen::Index count, DecayWorkspace<Scalar>& workspace) {
  if (workspace.size() < count) workspace.resize(count);
  auto decay = workspace.head(count);
  if (evaluation == Evaluation::exact) {
    // Each decay depends on its input only (decay.hpp), not on where the block starts or how long it is.
    exp_of_negative_magnitude(inputs, decay.data(), count);
  } else {
    for (Eigen::Index k = 0; k < count; ++k)
      decay[k] = inputs[k] == Scalar(0) ? Scalar(1) : Scalar(structural_interior_decay);
  }
  // The probabilities overwrite the decays in a pass of their own, without the caller's work in it: the built-in
  // rules are selects and one division, so the compiler vectorises the pass and no unit waits on a mispredicted
  // branch on the sign of its input (a sweep of a tiny model spent most of its time there).
  Scalar* probability = decay.data();
  for (Eigen::Index k = 0; k < count; ++k) probability[k] = rule.probability_of_one(inputs[k], states[k], probability[k]);
  return probability;
}

template <ConcreteUnitRule Rule, typename Scalar, typename Use>
void apply_unit_rule(const Rule& rule, Evaluation evaluation, const Scalar* inputs, const Scalar* states,
                     Eigen::Index count, DecayWorkspace<Scalar>& workspace, Use&& use) {
  const Scalar* probability = unit_rule_probabilities(rule, evaluation, inputs, states, count, workspace);
  for (Eigen::Index k = 0; k < count; ++k) use(k, probability[k]);
}

// The same for any rule of UnitRule: one dispatch per block, not per unit.
template <typename Scalar, typename Use>
void apply_unit_rule(const UnitRule& rule, Evaluation evaluation, const Scalar* inputs, const Scalar* states,
                     Eigen::Index count, DecayWorkspace<Scalar>& workspace, Use&& use) {
  std::visit(
      [&](const auto& concrete) { apply_unit_rule(concrete, evaluation, inputs, states, count, workspace, use); },
      rule);
}

// P(next = 1 | x, s) of a layer update for every unit of `inputs` with states `state` (same shape), without
// drawing: the whole matrix is one block. The exact and structural transition tables are built from it.
template <KernelUnitRule Rule, typename Scalar>
void layer_probabilities(const Rule& rule, Evaluation evaluation, const Matrix<Scalar>& inputs,
                         const Matrix<Scalar>& state, Matrix<Scalar>& probabilities) {
  require(inputs.rows() == state.rows() && inputs.cols() == state.cols(),
          "layer_probabilities: inputs and states differ in shape");
  probabilities.resize(inputs.rows(), inputs.cols());
  DecayWorkspace<Scalar> workspace;
  Scalar* out = probabilities.data();
  apply_unit_rule(rule, evaluation, inputs.data(), state.data(), inputs.size(), workspace,
                  [out](Eigen::Index k, Scalar probability) { out[k] = probability; });
}

}  // namespace rbmix
