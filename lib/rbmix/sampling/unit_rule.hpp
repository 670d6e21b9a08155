#pragma once
// Unit rules (ALGORITHMS.md §2). A unit rule gives P(next = 1 | x, s) for one binary unit with total input x
// (bias + weighted input, already multiplied by β when tempered) and current state s ∈ {0, 1}.
//
// The concept: a rule is a small value type with
//   static constexpr std::string_view name;                       // as written on the command line
//   template <class T> T probability_of_one(T x, T s, T decay) const;
// where decay = e^{−|x|} is passed in so that a batched caller computes it once per unit with vectorised exp;
// the rule itself is then cheap arithmetic. A rule promises: the result is a probability in [0, 1]; it is exactly
// 0 or 1 where the operator is structurally deterministic (so ergodicity checks can rely on exact zeros);
// and the resulting layer operator leaves p(unit | rest) ∝ e^{x·unit} invariant (all rules here but the naive one
// also satisfy detailed balance per unit; the naive flip does too but is not ergodic).
//
// Adding a rule: write one struct here and add it to UnitRule; parsing, the exact builder and the batched
// sampler all pick it up.
#include <cmath>
#include <string>
#include <string_view>
#include <variant>

namespace rbmix {

// Gibbs sampling: P(1) = σ(x).
struct GibbsRule {
  static constexpr std::string_view name = "gibbs";
  template <typename T>
  T probability_of_one(T x, T /*s*/, T decay) const {
    // σ(x) = 1/(1+e^{−x}) for x ≥ 0, e^{x}/(1+e^{x}) for x < 0; both from decay = e^{−|x|}.
    return x >= T(0) ? T(1) / (T(1) + decay) : decay / (T(1) + decay);
  }
};

// Flip-the-state (003 eq. 2–3): propose the flip, accept with min(1, p(flipped)/p(current)); at x = 0 the unit
// is resampled with probability 1/2, which is what makes the operator aperiodic (003 §3.3).
struct FlipTheStateRule {
  static constexpr std::string_view name = "flip";
  template <typename T>
  T probability_of_one(T x, T s, T decay) const {
    if (x > T(0)) return s == T(0) ? T(1) : T(1) - decay;
    if (x < T(0)) return s == T(0) ? decay : T(0);
    return T(0.5);
  }
};

// Naive Metropolis flip (Neal 1993): as flip-the-state but at x = 0 the flip is always accepted. Not ergodic in
// general (W = 0, b = c = 0 gives period 2); kept so rbmix can show that.
struct NaiveFlipRule {
  static constexpr std::string_view name = "naive";
  template <typename T>
  T probability_of_one(T x, T s, T decay) const {
    return x == T(0) ? T(1) - s : FlipTheStateRule{}.probability_of_one(x, s, decay);
  }
};

// T^α = α·T + (1−α)·G (003 §5.2).
struct MixtureRule {
  static constexpr std::string_view name = "mix";
  double flip_weight = 0.5;  // α
  template <typename T>
  T probability_of_one(T x, T s, T decay) const {
    const T alpha = static_cast<T>(flip_weight);
    return alpha * FlipTheStateRule{}.probability_of_one(x, s, decay) +
           (T(1) - alpha) * GibbsRule{}.probability_of_one(x, s, decay);
  }
};

using UnitRule = std::variant<GibbsRule, FlipTheStateRule, MixtureRule, NaiveFlipRule>;

// P(next = 1 | x, s) for any rule; computes e^{−|x|} itself.
template <typename T>
T probability_of_one(const UnitRule& rule, T x, T s) {
  const T decay = std::exp(-std::abs(x));
  return std::visit([&](const auto& concrete) { return concrete.probability_of_one(x, s, decay); }, rule);
}

// Parses "gibbs", "flip", "naive", "mix:A" (0 ≤ A ≤ 1); throws InputError naming the text otherwise.
UnitRule parse_unit_rule(std::string_view text);
// The text parse_unit_rule reads back: "gibbs", "flip", "naive", "mix:0.5".
std::string to_string(const UnitRule& rule);

}  // namespace rbmix
