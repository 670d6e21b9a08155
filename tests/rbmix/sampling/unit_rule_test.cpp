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
              ParameterisedUnitRule<MixtureRule> && !ParameterisedUnitRule<GibbsRule>);

// Inputs up to this size in absolute value: e^{−40} ≈ 4e−18 still leaves σ(x) distinct from 0 in double for x < 0.
constexpr double kLargestInput = 40.0;

// Every rule of UnitRule, the mixture at weights that tell T from G and α from 1 − α.
std::vector<UnitRule> every_rule() {
  return {GibbsRule{}, FlipTheStateRule{}, NaiveFlipRule{}, MixtureRule{0.0}, MixtureRule{0.3}, MixtureRule{1.0}};
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
  template <typename T>
  T probability_of_one(T x, T, T) const {
    return T(1) / (T(1) + std::exp(-x));
  }
};
struct UnbalancedRule {  // flip-the-state accepting uphill moves with e^{−2|x|}
  static constexpr std::string_view name = "unbalanced";
  static constexpr std::string_view description = "";
  static constexpr bool per_unit_detailed_balance = true;
  template <typename T>
  T probability_of_one(T x, T s, T decay) const {
    return FlipTheStateRule{}.probability_of_one(x, s, decay * decay);
  }
};
struct ClampedRule {  // min(1, 2(1 − e^{−|x|})) for x > 0: exactly 1 at the structural decay, not elsewhere
  static constexpr std::string_view name = "clamped";
  static constexpr std::string_view description = "";
  static constexpr bool per_unit_detailed_balance = false;
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

TEST(UnitRule, NamesParseAndPrintBackForEveryRule) {
  for (const UnitRule& rule : every_rule()) EXPECT_EQ(to_string(parse_unit_rule(to_string(rule))), to_string(rule));
  EXPECT_EQ(to_string(parse_unit_rule("mix:0.25")), "mix:0.25");
  EXPECT_EQ(std::get<MixtureRule>(parse_unit_rule("mix:0.25")).flip_weight, 0.25);
}

TEST(UnitRule, MalformedNamesAreInputErrors) {
  for (const char* text : {"", "gibbs2", "mix", "mix:", "mix:1.5", "mix:-0.1", "mix:0.5x", "flip:0.5"})
    EXPECT_THROW(parse_unit_rule(text), InputError) << text;
}

TEST(UnitRule, HelpListsEveryRuleFromTheTable) {
  EXPECT_EQ(unit_rule_names(), "gibbs, flip, mix:A, naive");
  const std::string help = unit_rule_help();
  for (const char* name : {"gibbs", "flip", "mix:A", "naive", "A·T + (1−A)·G"})
    EXPECT_NE(help.find(name), std::string::npos) << name;
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
