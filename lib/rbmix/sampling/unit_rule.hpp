#pragma once
// Unit rules (docs/algorithms/operators.md §2). A unit rule gives P(next = 1 | x, s) for one binary unit with total
// input x (bias + weighted input, already multiplied by β when tempered) and current state s ∈ {0, 1}. Every operator
// of rbmix is one rule: the exact builder, the structural pattern, the proofs and the batched sampler all evaluate it
// through one kernel (unit_rule_kernel.hpp).
//
// The contract (ConcreteUnitRule below; rbmix/verify/rule_contract.hpp checks it for any rule):
//   - probability_of_one(x, s, decay) is a probability in [0, 1], for float and double;
//   - the rule sees its input only through sign(x) (x > 0, x < 0, x = 0) and decay = e^{−|x|}, which the caller
//     computes (once per unit, vectorised). The structural tables evaluate a rule at one interior decay to find
//     which transitions are impossible, and the proofs reason about rational functions of e^{−|x|}: both need it;
//   - where the operator is deterministic for every decay of one sign (a structural 0 or 1) the result is exactly
//     0 or 1, so that ergodicity checks can rely on exact zeros;
//   - the layer operator leaves p(unit | rest) ∝ e^{x·unit} invariant, and a rule with
//     per_unit_detailed_balance = true satisfies p(s)·P(s → t) = p(t)·P(t → s) for each unit (all rules here do;
//     the naive flip is reversible but not ergodic);
//   - claims_ergodicity() says whether the sweep K = K_h K_v is irreducible and aperiodic on every RBM, ties
//     included; the verification rig (rbmix/verify/operator_invariants.hpp) checks the claim where it is made. It
//     is a property of the rule and its parameter (unit-modified:1 is not ergodic at ties; unit-modified:γ < 1 is);
//   - a rule has a name, and a parameterised rule (one with `parameter`) reads and writes its parameter, so that
//     names, parsing and help texts come from the rules themselves.
//
// Adding a rule: write one struct here and add it to UnitRule; parsing, help texts, the exact builder, the
// structural pattern and the batched sampler all pick it up.
#include <cmath>
#include <concepts>
#include <string>
#include <string_view>
#include <variant>

#include "rbmix/core/decay.hpp"

namespace rbmix {

// What every rule is; a rule is a small copyable value type.
template <typename Rule>
concept ConcreteUnitRule = std::copyable<Rule> && requires(const Rule& rule, double x, float y) {
  { Rule::name } -> std::convertible_to<std::string_view>;
  { Rule::description } -> std::convertible_to<std::string_view>;
  { Rule::per_unit_detailed_balance } -> std::convertible_to<bool>;
  { rule.claims_ergodicity() } -> std::same_as<bool>;
  { rule.probability_of_one(x, x, x) } -> std::same_as<double>;
  { rule.probability_of_one(y, y, y) } -> std::same_as<float>;
};

// A rule written "name:parameter" on the command line: parse_parameter throws InputError naming the text when the
// parameter is malformed, and parameter_text writes what parse_parameter reads back.
template <typename Rule>
concept ParameterisedUnitRule = ConcreteUnitRule<Rule> && requires(const Rule& rule, std::string_view text) {
  { Rule::parameter } -> std::convertible_to<std::string_view>;
  { Rule::parse_parameter(text) } -> std::same_as<Rule>;
  { rule.parameter_text() } -> std::same_as<std::string>;
};

// Gibbs sampling: P(1) = σ(x).
struct GibbsRule {
  static constexpr std::string_view name = "gibbs";
  static constexpr std::string_view description = "Gibbs sampling G";
  static constexpr bool per_unit_detailed_balance = true;
  static constexpr bool claims_ergodicity() { return true; }  // every transition has positive probability
  template <typename T>
  T probability_of_one(T x, T /*s*/, T decay) const {
    return logistic_from_decay(x, decay);  // σ(x), decay.hpp
  }
};

// Flip-the-state (003 eq. 2–3): propose the flip, accept with min(1, p(flipped)/p(current)); at x = 0 the unit
// is resampled with probability 1/2, which is what makes the operator aperiodic (003 §3.3).
struct FlipTheStateRule {
  static constexpr std::string_view name = "flip";
  static constexpr std::string_view description = "flip-the-state T (003 §3)";
  static constexpr bool per_unit_detailed_balance = true;
  static constexpr bool claims_ergodicity() { return true; }  // 003 Thms 1–2
  template <typename T>
  T probability_of_one(T x, T s, T decay) const {
    // Written as selects of values all computed up front, so that the kernel's pass over a block vectorises.
    const bool off = s == T(0);
    const T uphill = off ? T(1) : T(1) - decay;  // x > 0
    const T downhill = off ? decay : T(0);       // x < 0
    return x > T(0) ? uphill : (x < T(0) ? downhill : T(0.5));
  }
};

// Naive Metropolis flip (Neal 1993): as flip-the-state but at x = 0 the flip is always accepted. Not ergodic in
// general (W = 0, b = c = 0 gives period 2); kept so rbmix can show that.
struct NaiveFlipRule {
  static constexpr std::string_view name = "naive";
  static constexpr std::string_view description = "naive Metropolis flip, always flips at x = 0 (not ergodic)";
  static constexpr bool per_unit_detailed_balance = true;
  static constexpr bool claims_ergodicity() { return false; }  // W = 0, b = c = 0: period 2
  template <typename T>
  T probability_of_one(T x, T s, T decay) const {
    return x == T(0) ? T(1) - s : FlipTheStateRule{}.probability_of_one(x, s, decay);
  }
};

// T^α = α·T + (1−α)·G (003 §5.2).
struct MixtureRule {
  static constexpr std::string_view name = "mix";
  static constexpr std::string_view parameter = "A";
  static constexpr std::string_view description = "the mixture A·T + (1−A)·G, 0 ≤ A ≤ 1 (003 §5.2)";
  static constexpr bool per_unit_detailed_balance = true;
  static constexpr bool claims_ergodicity() { return true; }  // α < 1 as G, α = 1 as T
  double flip_weight = 0.5;                                   // α
  template <typename T>
  T probability_of_one(T x, T s, T decay) const {
    const T alpha = static_cast<T>(flip_weight);
    return alpha * FlipTheStateRule{}.probability_of_one(x, s, decay) +
           (T(1) - alpha) * GibbsRule{}.probability_of_one(x, s, decay);
  }
  // "0.25" → α = 0.25; throws InputError unless the text is a number in [0, 1].
  static MixtureRule parse_parameter(std::string_view text);
  std::string parameter_text() const;
};

// The modified matrix of 001 §3 applied to one unit (docs/algorithms/operators.md §2.4): the unit's Gibbs kernel A has
// rows (1 − p, p) with p = σ(x) and diagonal (1 − p, p); with λ = γ·min(p, 1 − p), 0 ≤ γ ≤ 1, the unit steps by A′ = (A
// − λI)/(1 − λ), which keeps p(unit | rest) with detailed balance (proofs/unit-modified-rule). Through d = e^{−|x|} and
// g = 1 − γ (min(p, 1 − p) = d/(1 + d), so 1 − λ = (1 + g·d)/(1 + d)):
//   x ≥ 0:  P(0 → 1) = 1/(1 + g·d),  P(1 → 1) = (1 − γ·d)/(1 + g·d);
//   x < 0:  P(0 → 1) = d/(1 + g·d),  P(1 → 1) = g·d/(1 + g·d).
// γ = 0 is Gibbs, bit for bit. γ = 1 gives 1, 1 − e^{−|x|}, e^{−|x|}, 0: flip-the-state for x ≠ 0 bit for bit, and
// at x = 0 (d = 1) the naive flip, which always flips; flip-the-state's tie rule (resample with ½) is the choice
// λ = 0 at ties instead, so γ = 1 is not ergodic in general. Every γ < 1 leaves both the stay and the move
// probability of every unit positive, so the sweep is irreducible and aperiodic. Named `unit-modified` so that it
// is not mistaken for analyze's `modified:RULE`, which shifts the whole sweep matrix by its minimum diagonal.
struct UnitModifiedRule {
  static constexpr std::string_view name = "unit-modified";
  static constexpr std::string_view parameter = "γ";
  static constexpr std::string_view description =
      "per-unit modified Gibbs (A − λI)/(1 − λ), λ = γ·min(p, 1 − p), 0 ≤ γ ≤ 1: γ = 0 is G, γ = 1 is T off ties "
      "(001 §3)";
  static constexpr bool per_unit_detailed_balance = true;
  bool claims_ergodicity() const { return shift < 1.0; }  // γ = 1 is the naive flip at ties (above)
  double shift = 0.5;                                     // γ
  template <typename T>
  T probability_of_one(T x, T s, T decay) const {
    const T gamma = static_cast<T>(shift);
    const T stay_weight = T(1) - gamma;  // g = 1 − γ
    const T normaliser = T(1) + stay_weight * decay;
    // Selects of a numerator and one division, as in GibbsRule.
    const bool off = s == T(0);
    const T numerator = x >= T(0) ? (off ? T(1) : T(1) - gamma * decay) : (off ? decay : stay_weight * decay);
    return numerator / normaliser;
  }
  // "0.5" → γ = 0.5; throws InputError unless the text is a number in [0, 1].
  static UnitModifiedRule parse_parameter(std::string_view text);
  std::string parameter_text() const;
};

using UnitRule = std::variant<GibbsRule, FlipTheStateRule, MixtureRule, NaiveFlipRule, UnitModifiedRule>;

// P(next = 1 | x, s) for any rule; computes e^{−|x|} itself (a single evaluation: batches use the kernel).
template <typename T>
T probability_of_one(const UnitRule& rule, T x, T s) {
  const T decay = std::exp(-std::abs(x));
  return std::visit([&](const auto& concrete) { return concrete.probability_of_one(x, s, decay); }, rule);
}

// Parses any rule of UnitRule by its name ("gibbs", "flip", "naive", "mix:A", "unit-modified:γ"); throws InputError
// naming the text and listing the rules otherwise.
UnitRule parse_unit_rule(std::string_view text);
// The text parse_unit_rule reads back: "gibbs", "flip", "naive", "mix:0.5".
std::string to_string(const UnitRule& rule);
// Every rule as written on the command line, comma-separated: "gibbs, flip, mix:A, naive, unit-modified:γ".
std::string unit_rule_names();
// One line per rule, "  NAME  description", for help texts.
std::string unit_rule_help();

}  // namespace rbmix
