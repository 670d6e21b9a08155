#pragma once
// The unit-rule contract (rbmix/sampling/unit_rule.hpp) checked for any rule, built-in or a user's own:
//   - P(next = 1 | x, s) is a probability in [0, 1], in double and in float;
//   - the rule sees x only through sign(x) and the decay e^{−|x|}: two inputs of the same sign give the same
//     result at the same decay;
//   - structural exactness: where the kernel's structural evaluation gives exactly 0 or 1 the rule gives exactly
//     that at every decay in (0, 1), and where it does not the rule stays strictly inside (0, 1);
//   - p(unit | rest) ∝ e^{x·unit} is invariant, and per-unit detailed balance holds where the rule claims it.
// check_rule_contract tests one input; check_rule_contract_on_grid a fixed grid of inputs, ties included;
// generators.hpp draws inputs for rapidcheck (arbitrary_rule_contract_input).
#include <algorithm>
#include <cmath>
#include <sstream>
#include <variant>

#include "rbmix/sampling/unit_rule_kernel.hpp"
#include "rbmix/verify/verification_result.hpp"

namespace rbmix::verify {

// Relative tolerance of the balance checks: a few roundings of terms of size ≤ 1 in double.
inline constexpr double rule_balance_tolerance = 1e-12;

// One point of the contract: an input x, another input with the sign of x, and a decay in (0, 1).
struct RuleContractInput {
  double x = 0.0;
  double same_sign_input = 0.0;
  double decay = 0.5;
};

// P(next = 1 | x, s) of one unit through the kernel, in the given evaluation.
template <ConcreteUnitRule Rule, typename Scalar>
Scalar kernel_probability(const Rule& rule, Evaluation evaluation, Scalar x, Scalar s) {
  DecayWorkspace<Scalar> workspace;
  Scalar probability = -1;
  apply_unit_rule(rule, evaluation, &x, &s, 1, workspace, [&](Eigen::Index, Scalar p) { probability = p; });
  return probability;
}

// The contract at input x (and `same_sign_input`, another input with the sign of x) for both current states, at
// the rule's own decay e^{−|x|} and at the arbitrary decay `decay` ∈ (0, 1).
template <ConcreteUnitRule Rule>
VerificationResult check_rule_contract(const Rule& rule, double x, double same_sign_input, double decay) {
  std::ostringstream where;
  where << "unit rule '" << Rule::name << "' at x = " << x << " (same sign " << same_sign_input << ", decay " << decay
        << "): ";
  const auto failure = [&](const auto&... what) {
    std::ostringstream message;
    message << where.str();
    (message << ... << what);
    return VerificationResult::fail(message.str());
  };
  const auto close = [](double a, double b) {
    return std::abs(a - b) <= rule_balance_tolerance * std::max(1.0, std::abs(a));
  };
  double up = 0.0, stay = 0.0;  // P(0 → 1), P(1 → 1)
  for (const double s : {0.0, 1.0}) {
    const double exact = kernel_probability(rule, Evaluation::exact, x, s);
    const float single = kernel_probability(rule, Evaluation::exact, static_cast<float>(x), static_cast<float>(s));
    if (!(exact >= 0.0 && exact <= 1.0 && single >= 0.0f && single <= 1.0f))
      return failure("P(1 | s = ", s, ") = ", exact, " (float ", single, ") is not a probability");
    (s == 0.0 ? up : stay) = exact;
    const double at_decay = rule.probability_of_one(x, s, decay);
    const double other = rule.probability_of_one(same_sign_input, s, decay);
    if (at_decay != other) return failure("the rule reads x beyond its sign: ", at_decay, " != ", other, " at s = ", s);
    const double structural = kernel_probability(rule, Evaluation::structural, x, s);
    const bool deterministic = structural == 0.0 || structural == 1.0;
    if (x != 0.0 && deterministic && at_decay != structural)
      return failure("structurally ", structural, " but ", at_decay, " at s = ", s);
    if (x != 0.0 && !deterministic && (at_decay <= 0.0 || at_decay >= 1.0))
      return failure("structurally inside (0, 1) but ", at_decay, " at s = ", s);
    if (x == 0.0 && exact != structural) return failure("at x = 0 the structural evaluation must be the exact one");
  }
  // π(1) = σ(x) and π(0) = 1 − σ(x), both through e^{−|x|} so that neither overflows.
  const double own_decay = std::exp(-std::abs(x));
  const double one = x >= 0.0 ? 1.0 / (1.0 + own_decay) : own_decay / (1.0 + own_decay);
  const double zero = x >= 0.0 ? own_decay / (1.0 + own_decay) : 1.0 / (1.0 + own_decay);
  if (!close(zero * up + one * stay, one))
    return failure("p(unit | rest) is not invariant: π(0)P(0→1) + π(1)P(1→1) = ", zero * up + one * stay,
                   ", π(1) = ", one);
  if (Rule::per_unit_detailed_balance && !close(zero * up, one * (1.0 - stay)))
    return failure("detailed balance fails: π(0)P(0→1) = ", zero * up, ", π(1)P(1→0) = ", one * (1.0 - stay));
  return VerificationResult::pass();
}

template <ConcreteUnitRule Rule>
VerificationResult check_rule_contract(const Rule& rule, const RuleContractInput& input) {
  return check_rule_contract(rule, input.x, input.same_sign_input, input.decay);
}

// The same for whichever built-in rule `rule` holds.
inline VerificationResult check_rule_contract(const UnitRule& rule, const RuleContractInput& input) {
  return std::visit([&](const auto& concrete) { return check_rule_contract(concrete, input); }, rule);
}

// The contract on a fixed grid: the tie x = 0, and x = ±k/8 for k = 1…320 (|x| up to 40, where e^{−40} ≈ 4e−18
// still keeps σ(x) away from 0 in double for x < 0), each with another input of the same sign and decays from
// 0.001 to 0.999. The first failure is returned.
template <ConcreteUnitRule Rule>
VerificationResult check_rule_contract_on_grid(const Rule& rule) {
  if (VerificationResult tie = check_rule_contract(rule, 0.0, 0.0, 0.5); !tie) return tie;
  std::size_t points = 1;
  for (int k = 1; k <= 320; ++k)
    for (const double sign : {-1.0, 1.0})
      for (const double decay : {0.001, 0.1, 0.5, 0.9, 0.999}) {
        const double x = sign * k / 8.0;
        const double other = sign * (1 + (k * 37) % 320) / 8.0;
        if (VerificationResult point = check_rule_contract(rule, x, other, decay); !point) return point;
        ++points;
      }
  std::ostringstream message;
  message << "unit rule '" << Rule::name << "' keeps the contract at " << points << " points";
  return VerificationResult::pass(message.str());
}

}  // namespace rbmix::verify
