#include "rbmix/verify/rule_contract.hpp"

#include <gtest/gtest.h>

#include "rbmix/verify/gtest_adapter.hpp"

namespace rbmix::verify {
namespace {

TEST(RuleContract, EveryBuiltInRuleKeepsItOnTheGrid) {
  RBMIX_EXPECT_VERIFIED(check_rule_contract_on_grid(GibbsRule{}));
  RBMIX_EXPECT_VERIFIED(check_rule_contract_on_grid(FlipTheStateRule{}));
  RBMIX_EXPECT_VERIFIED(check_rule_contract_on_grid(NaiveFlipRule{}));
  RBMIX_EXPECT_VERIFIED(check_rule_contract_on_grid(MixtureRule{0.3}));
}

// Gibbs with a sign error, P(1) = σ(−x): a probability, structurally sound, but p(unit | rest) is not invariant.
struct SignErrorGibbsRule {
  static constexpr std::string_view name = "gibbs-sign-error";
  static constexpr std::string_view description = "";
  static constexpr bool per_unit_detailed_balance = true;
  static constexpr bool claims_ergodicity() { return true; }
  template <typename T>
  T probability_of_one(T x, T s, T decay) const {
    return GibbsRule{}.probability_of_one(-x, s, decay);
  }
};

TEST(RuleContract, TheGridRejectsAGibbsRuleWithASignErrorAndSaysWhy) {
  const VerificationResult result = check_rule_contract_on_grid(SignErrorGibbsRule{});
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.message.find("unit rule 'gibbs-sign-error' at x = -0.125"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("p(unit | rest) is not invariant"), std::string::npos) << result.message;
}

}  // namespace
}  // namespace rbmix::verify
