#pragma once
// Unit rules written outside the library's rule set, as a user of rbmix::verify would write them: one correct
// (lazy Gibbs) and one wrong (flip-the-state without its tie rule, i.e. the naive flip at x = 0).
#include <string_view>

#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix::testing {

// Keep the state with probability 1/2, else resample it by Gibbs: reversible unit by unit, aperiodic.
struct LazyGibbsRule {
  static constexpr std::string_view name = "lazy-gibbs";
  static constexpr std::string_view description = "keep the state with probability 1/2, else Gibbs";
  static constexpr bool per_unit_detailed_balance = true;
  static constexpr bool claims_ergodicity() { return true; }
  template <typename T>
  T probability_of_one(T x, T s, T decay) const {
    return T(0.5) * s + T(0.5) * GibbsRule{}.probability_of_one(x, s, decay);
  }
};

// Flip-the-state that always flips at x = 0: correct off ties, periodic on a model with every input tied.
struct TieForgettingFlipRule {
  static constexpr std::string_view name = "flip-without-tie-rule";
  static constexpr std::string_view description = "flip-the-state that always flips at x = 0";
  static constexpr bool per_unit_detailed_balance = true;
  static constexpr bool claims_ergodicity() { return true; }
  template <typename T>
  T probability_of_one(T x, T s, T decay) const {
    return x == T(0) ? T(1) - s : FlipTheStateRule{}.probability_of_one(x, s, decay);
  }
};

}  // namespace rbmix::testing
