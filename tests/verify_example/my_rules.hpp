#pragma once
// Unit rules written outside rbmix, as a user of the library writes them: a struct that models
// rbmix::ConcreteUnitRule (rbmix/sampling/unit_rule.hpp) — a name, a description, whether it claims per-unit
// detailed balance, and P(next = 1 | x, s) from sign(x), the current state s and decay = e^{−|x|}.
#include <string_view>

#include "rbmix/sampling/unit_rule.hpp"

namespace my_sampler {

// σ(x) from the sign of x and e^{−|x|}, without overflow.
template <typename T>
T logistic(T x, T decay) {
  return x >= T(0) ? T(1) / (T(1) + decay) : decay / (T(1) + decay);
}

// Lazy Gibbs: keep the unit's state with probability `laziness`, else resample it from p(unit | rest).
struct LazyGibbsRule {
  static constexpr std::string_view name = "lazy-gibbs";
  static constexpr std::string_view description = "keep the state with probability `laziness`, else Gibbs";
  static constexpr bool per_unit_detailed_balance = true;
  static constexpr bool claims_ergodicity() { return true; }
  double laziness = 0.25;
  template <typename T>
  T probability_of_one(T x, T s, T decay) const {
    const T keep = static_cast<T>(laziness);
    return keep * s + (T(1) - keep) * logistic(x, decay);
  }
};

// Deliberately wrong 1: flip-the-state (propose the flip, accept with min(1, p(flipped)/p(current))) that forgets
// the tie rule: at x = 0 it always flips, so with W = 0 and zero biases every unit alternates and the chain has
// period 2. Right everywhere but at exact ties.
struct FlipWithoutTieRule {
  static constexpr std::string_view name = "flip-without-tie-rule";
  static constexpr std::string_view description = "flip-the-state that always flips at x = 0";
  static constexpr bool per_unit_detailed_balance = true;
  static constexpr bool claims_ergodicity() { return true; }
  template <typename T>
  T probability_of_one(T x, T s, T decay) const {
    if (x > T(0)) return s == T(0) ? T(1) : T(1) - decay;
    if (x < T(0)) return s == T(0) ? decay : T(0);
    return T(1) - s;  // the tie rule forgotten: flip-the-state resamples with probability 1/2 here
  }
};

// Deliberately wrong 2: Gibbs with a sign error, P(1) = σ(−x).
struct SignErrorGibbsRule {
  static constexpr std::string_view name = "gibbs-sign-error";
  static constexpr std::string_view description = "Gibbs sampling with σ(−x) for σ(x)";
  static constexpr bool per_unit_detailed_balance = true;
  static constexpr bool claims_ergodicity() { return true; }
  template <typename T>
  T probability_of_one(T x, T /*s*/, T decay) const {
    return logistic(-x, decay);
  }
};

static_assert(rbmix::ConcreteUnitRule<LazyGibbsRule> && rbmix::ConcreteUnitRule<FlipWithoutTieRule> &&
              rbmix::ConcreteUnitRule<SignErrorGibbsRule>);

}  // namespace my_sampler
