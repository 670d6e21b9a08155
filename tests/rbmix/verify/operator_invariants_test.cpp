#include "rbmix/verify/operator_invariants.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "rbmix/verify/generators.hpp"
#include "rbmix/verify/gtest_adapter.hpp"
#include "support/user_rules.hpp"

namespace rbmix::verify {
namespace {

using testing::LazyGibbsRule;
using testing::TieForgettingFlipRule;

RC_GTEST_PROP(OperatorInvariants, HoldForAUserRuleOnRandomAndTiedRbms, ()) {
  RC_ASSERT(check_operator_invariants(*arbitrary_tiny_rbm(3, 3.0), LazyGibbsRule{}));
  RC_ASSERT(check_operator_invariants(*arbitrary_tied_rbm(3, 2), LazyGibbsRule{}, 0.5));
}

// Off ties the rule is flip-the-state and passes; at W = 0, b = c = 0 every unit flips at every step, so the
// chain has period 2 and the ergodicity the rule's author claims fails, with a message that says so.
TEST(OperatorInvariants, RejectAUserRuleThatForgetsTheTieRule) {
  Rbm untied(2, 2);
  untied.weights << 0.5, -1.0, 1.5, 0.25;
  untied.visible_bias << 0.1, -0.3;
  untied.hidden_bias << 0.7, -0.2;
  RBMIX_EXPECT_VERIFIED(check_operator_invariants(untied, TieForgettingFlipRule{}));
  const VerificationResult tied = check_operator_invariants(Rbm(2, 2), TieForgettingFlipRule{});
  EXPECT_FALSE(tied.passed);
  EXPECT_NE(tied.message.find("flip-without-tie-rule at β = 1: ergodicity claimed true but found"), std::string::npos)
      << tied.message;
}

TEST(OperatorInvariants, AUserRuleAndTheBuiltInRuleGiveTheSameOperator) {
  Rbm rbm(2, 3);
  rbm.weights << 0.5, -1.0, 1.5, 0.25, 0.0, -2.0;
  const ExactOperator builtin = exact_operator(rbm, UnitRule{NaiveFlipRule{}});
  const ExactOperator user = exact_operator(rbm, TieForgettingFlipRule{}, 1.0, std::nullopt);
  EXPECT_EQ(builtin.sweep, user.sweep);
  EXPECT_EQ(builtin.pattern, user.pattern);
  EXPECT_EQ(builtin.name, "naive at β = 1");
}

// The ergodicity claim is the rule's: unit-modified:1 is the naive flip at ties and claims none, so checking it
// through the public API on a tied RBM (W = 0: period 2) passes, while γ < 1 claims ergodicity and has it.
TEST(OperatorInvariants, EveryRuleClaimsTheErgodicityItHas) {
  EXPECT_FALSE(UnitModifiedRule{1.0}.claims_ergodicity());
  RBMIX_EXPECT_VERIFIED(check_operator_invariants(Rbm(2, 2), UnitModifiedRule{1.0}));
  EXPECT_FALSE(exact_operator(Rbm(2, 2), UnitRule{UnitModifiedRule{1.0}}).ergodic.has_value());
  RBMIX_EXPECT_VERIFIED(check_operator_invariants(Rbm(2, 2), UnitModifiedRule{0.99}));
  EXPECT_EQ(exact_operator(Rbm(2, 2), UnitRule{UnitModifiedRule{0.99}}).ergodic, std::optional<bool>(true));
  // Claimed where it is false, the check fails: the claim is checked, not assumed.
  EXPECT_FALSE(check_operator_invariants(Rbm(2, 2), UnitModifiedRule{1.0}, 1.0, std::optional<bool>(true)).passed);
}

}  // namespace
}  // namespace rbmix::verify
