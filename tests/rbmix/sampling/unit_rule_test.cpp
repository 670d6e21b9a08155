#include "rbmix/sampling/unit_rule.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>

#include "rbmix/core/error.hpp"
#include "rbmix/sampling/unit_rule_kernel.hpp"
#include "rbmix/verify/generators.hpp"
#include "rbmix/verify/gtest_adapter.hpp"
#include "rbmix/verify/rule_contract.hpp"

namespace rbmix {
namespace {

static_assert(ConcreteUnitRule<GibbsRule> && ConcreteUnitRule<FlipTheStateRule> && ConcreteUnitRule<NaiveFlipRule> &&
              ParameterisedUnitRule<MixtureRule> && ParameterisedUnitRule<UnitModifiedRule> &&
              !ParameterisedUnitRule<GibbsRule>);

// Inputs up to this size in absolute value: e^{−40} ≈ 4e−18 still leaves σ(x) distinct from 0 in double for x < 0.
constexpr double kLargestInput = 40.0;

// Every rule of UnitRule, the mixture at weights that tell T from G and α from 1 − α, the per-unit modified rule at
// both ends and inside.
std::vector<UnitRule> every_rule() {
  return {
      GibbsRule{},      FlipTheStateRule{},    NaiveFlipRule{},       MixtureRule{0.0},       MixtureRule{0.3},
      MixtureRule{1.0}, UnitModifiedRule{0.0}, UnitModifiedRule{0.3}, UnitModifiedRule{0.99}, UnitModifiedRule{1.0}};
}

RC_GTEST_PROP(UnitRule, EveryRuleKeepsTheContractAtNonzeroInputs, ()) {
  const verify::RuleContractInput input = *verify::arbitrary_rule_contract_input(kLargestInput);
  for (const UnitRule& rule : every_rule()) RC_ASSERT(verify::check_rule_contract(rule, input));
}

TEST(UnitRule, EveryRuleKeepsTheContractAtATie) {
  for (const UnitRule& rule : every_rule()) RBMIX_EXPECT_VERIFIED(verify::check_rule_contract(rule, {0.0, 0.0, 0.5}));
}

// Broken rules the rig must reject, one per clause of the contract it names.
struct ReadsTheInputRule {  // σ(x) from x itself: right at the rule's own decay, wrong at any other
  static constexpr std::string_view name = "reads-x";
  static constexpr std::string_view description = "";
  static constexpr bool per_unit_detailed_balance = true;
  static constexpr bool claims_ergodicity() { return true; }
  template <typename T>
  T probability_of_one(T x, T, T) const {
    return T(1) / (T(1) + std::exp(-x));
  }
};
struct UnbalancedRule {  // flip-the-state accepting uphill moves with e^{−2|x|}
  static constexpr std::string_view name = "unbalanced";
  static constexpr std::string_view description = "";
  static constexpr bool per_unit_detailed_balance = true;
  static constexpr bool claims_ergodicity() { return true; }
  template <typename T>
  T probability_of_one(T x, T s, T decay) const {
    return FlipTheStateRule{}.probability_of_one(x, s, decay * decay);
  }
};
struct ClampedRule {  // min(1, 2(1 − e^{−|x|})) for x > 0: exactly 1 at the structural decay, not elsewhere
  static constexpr std::string_view name = "clamped";
  static constexpr std::string_view description = "";
  static constexpr bool per_unit_detailed_balance = false;
  static constexpr bool claims_ergodicity() { return true; }
  template <typename T>
  T probability_of_one(T x, T s, T decay) const {
    return x > T(0) ? std::min(T(1), T(2) * (T(1) - decay)) : GibbsRule{}.probability_of_one(x, s, decay);
  }
};

TEST(UnitRule, TheContractRigRejectsBrokenRules) {
  EXPECT_FALSE(verify::check_rule_contract(ReadsTheInputRule{}, 1.0, 2.0, 0.5));
  EXPECT_FALSE(verify::check_rule_contract(UnbalancedRule{}, -1.0, -2.0, 0.5));
  EXPECT_FALSE(verify::check_rule_contract(ClampedRule{}, 1.0, 2.0, 0.9));
}

TEST(UnitRule, MixtureWeightsTheFlipByAlphaAndGibbsByOneMinusAlpha) {
  // At x = 1, s = 1: T gives 1 − e^{−1}, G gives σ(1). α = 0.3 must give 0.3·T + 0.7·G (α ≠ ½ tells the weights
  // apart).
  const double decay = std::exp(-1.0);
  const double flip = 1.0 - decay;
  const double gibbs = 1.0 / (1.0 + decay);
  EXPECT_DOUBLE_EQ(MixtureRule{0.3}.probability_of_one(1.0, 1.0, decay), 0.3 * flip + 0.7 * gibbs);
}

// The unit's Gibbs kernel A = [[1 − p, p], [1 − p, p]] with λ = γ·min(p, 1 − p): A′ = (A − λI)/(1 − λ) computed
// from p directly must agree with the rule, which sees only sign(x) and e^{−|x|}.
TEST(UnitRule, UnitModifiedIsTheShiftedGibbsKernelOfOneUnit) {
  constexpr double kTolerance = 1e-15;  // a few roundings of terms of size ≤ 1
  for (const double gamma : {0.0, 0.25, 0.7, 1.0})
    for (const double x : {-3.0, -0.4, 0.0, 0.4, 3.0}) {
      const double p = 1.0 / (1.0 + std::exp(-x));
      const double lambda = gamma * std::min(p, 1.0 - p);
      const UnitRule rule = UnitModifiedRule{gamma};
      EXPECT_NEAR(probability_of_one(rule, x, 0.0), p / (1.0 - lambda), kTolerance) << gamma << ' ' << x;
      EXPECT_NEAR(probability_of_one(rule, x, 1.0), (p - lambda) / (1.0 - lambda), kTolerance) << gamma << ' ' << x;
    }
}

// γ = 0 is Gibbs and γ = 1 is flip-the-state off ties, bit for bit in double and float; at a tie γ = 1 is the naive
// flip (flip-the-state's tie rule is the choice λ = 0 there).
TEST(UnitRule, UnitModifiedEndsAreGibbsAndFlipTheState) {
  for (const double x : {-30.0, -2.5, -0.125, 0.0, 0.125, 2.5, 30.0})
    for (const double s : {0.0, 1.0}) {
      EXPECT_EQ(probability_of_one(UnitRule{UnitModifiedRule{0.0}}, x, s),
                probability_of_one(UnitRule{GibbsRule{}}, x, s));
      EXPECT_EQ(probability_of_one(UnitRule{UnitModifiedRule{0.0}}, static_cast<float>(x), static_cast<float>(s)),
                probability_of_one(UnitRule{GibbsRule{}}, static_cast<float>(x), static_cast<float>(s)));
      const UnitRule end = x == 0.0 ? UnitRule{NaiveFlipRule{}} : UnitRule{FlipTheStateRule{}};
      EXPECT_EQ(probability_of_one(UnitRule{UnitModifiedRule{1.0}}, x, s), probability_of_one(end, x, s));
      EXPECT_EQ(probability_of_one(UnitRule{UnitModifiedRule{1.0}}, static_cast<float>(x), static_cast<float>(s)),
                probability_of_one(end, static_cast<float>(x), static_cast<float>(s)));
    }
}

// Every γ < 1 keeps both the stay and the move probability of a unit positive, at ties too: what makes the sweep
// ergodic (the naive flip's failure is a stay probability of 0 at x = 0).
TEST(UnitRule, UnitModifiedBelowOneStaysAndMovesWithPositiveProbability) {
  for (const double gamma : {0.0, 0.5, 0.999})
    for (const double x : {-2.0, 0.0, 2.0})
      for (const double s : {0.0, 1.0}) {
        const double one = probability_of_one(UnitRule{UnitModifiedRule{gamma}}, x, s);
        EXPECT_GT(one, 0.0) << gamma << ' ' << x << ' ' << s;
        EXPECT_LT(one, 1.0) << gamma << ' ' << x << ' ' << s;
      }
}

TEST(UnitRule, NamesParseAndPrintBackForEveryRule) {
  for (const UnitRule& rule : every_rule()) EXPECT_EQ(to_string(parse_unit_rule(to_string(rule))), to_string(rule));
  EXPECT_EQ(to_string(parse_unit_rule("mix:0.25")), "mix:0.25");
  EXPECT_EQ(std::get<MixtureRule>(parse_unit_rule("mix:0.25")).flip_weight, 0.25);
  EXPECT_EQ(to_string(parse_unit_rule("unit-modified:0.5")), "unit-modified:0.5");
  EXPECT_EQ(std::get<UnitModifiedRule>(parse_unit_rule("unit-modified:0.75")).shift, 0.75);
}

TEST(UnitRule, MalformedNamesAreInputErrors) {
  for (const char* text :
       {"", "gibbs2", "mix", "mix:", "mix:1.5", "mix:-0.1", "mix:0.5x", "flip:0.5", "unit-modified",
        "unit-modified:", "unit-modified:1.01", "unit-modified:-1", "unit-modified:nan", "modified:gibbs"})
    EXPECT_THROW(parse_unit_rule(text), InputError) << text;
}

TEST(UnitRule, HelpListsEveryRuleFromTheTable) {
  EXPECT_EQ(unit_rule_names(), "gibbs, flip, mix:A, naive, unit-modified:γ");
  const std::string help = unit_rule_help();
  for (const char* name : {"gibbs", "flip", "mix:A", "naive", "A·T + (1−A)·G", "unit-modified:γ"})
    EXPECT_NE(help.find(name), std::string::npos) << name;
  // Descriptions start in one column although "γ" takes two bytes.
  EXPECT_NE(help.find("  gibbs            Gibbs"), std::string::npos) << help;
  EXPECT_NE(help.find("  unit-modified:γ  per-unit"), std::string::npos) << help;
}

TEST(UnitRule, SingleEvaluationAgreesWithTheKernel) {
  DecayWorkspace<double> workspace;
  const double inputs[] = {-3.0, -0.25, 0.0, 0.25, 3.0};
  const double states[] = {1.0, 0.0, 1.0, 1.0, 0.0};
  for (const UnitRule& rule : every_rule())
    apply_unit_rule(rule, Evaluation::exact, inputs, states, 5, workspace, [&](Eigen::Index k, double p) {
      EXPECT_EQ(p, probability_of_one(rule, inputs[k], states[k])) << to_string(rule) << " unit " << k;
    });
}

}  // namespace
}  // namespace rbmix
