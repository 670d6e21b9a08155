#pragma once
// The checks a user runs on their own unit rule with rbmix::verify, as one GoogleTest suite typed on the rule: the
// unit-rule contract, the exact operator invariants on random and on tied tiny RBMs (rapidcheck), and the χ² test of
// rbmix's sampler running the rule against the rule's exact transition rows. verify_my_rule.cpp runs it on a
// correct rule, wrong_rules.cpp on two wrong ones.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "rbmix/verify/generators.hpp"
#include "rbmix/verify/gtest_adapter.hpp"
#include "rbmix/verify/operator_invariants.hpp"
#include "rbmix/verify/rule_contract.hpp"
#include "rbmix/verify/sampled_transitions.hpp"

// Runs a rapidcheck property inside a GoogleTest test (rapidcheck's RC_GTEST_PROP has no typed form); rapidcheck
// prints the counterexample and the check's message.
template <typename Property>
void expect_property(const char* description, Property property) {
  if (!rc::check(description, property)) ADD_FAILURE() << "rapidcheck falsified: " << description;
}

template <typename Rule>
class RuleChecks : public ::testing::Test {};
TYPED_TEST_SUITE_P(RuleChecks);

TYPED_TEST_P(RuleChecks, KeepsTheUnitRuleContract) {
  RBMIX_EXPECT_VERIFIED(rbmix::verify::check_rule_contract_on_grid(TypeParam{}));
}

TYPED_TEST_P(RuleChecks, IsExactOnRandomTinyRbms) {
  expect_property("stationary, reversible, ergodic on random RBMs", [] {
    RC_ASSERT(rbmix::verify::check_operator_invariants(*rbmix::verify::arbitrary_tiny_rbm(3, 3.0), TypeParam{}));
  });
}

// Integer weights and zero biases: total inputs of exactly 0 are common, where tie rules matter.
TYPED_TEST_P(RuleChecks, IsExactOnTinyRbmsWithTies) {
  expect_property("stationary, reversible, ergodic on RBMs with ties", [] {
    RC_ASSERT(rbmix::verify::check_operator_invariants(*rbmix::verify::arbitrary_tied_rbm(3, 2), TypeParam{}));
  });
}

// 20000 chains from each of the 32 joint states, one sweep, in double and in float: a correct sampler fails with
// probability ≤ 1e-6 (TransitionTestOptions::false_failure_rate, Bonferroni over the 64 rows).
TYPED_TEST_P(RuleChecks, SamplesItsExactTransitionRows) {
  rbmix::Rbm rbm(3, 2);
  rbm.weights << 1.2, -0.7, 0.4, -1.5, 0.9, 1.1;
  rbm.visible_bias << 0.3, -0.2, 0.0;
  rbm.hidden_bias << -0.4, 0.0;
  RBMIX_EXPECT_VERIFIED(rbmix::verify::check_sampled_transitions(rbm, TypeParam{}));
}

REGISTER_TYPED_TEST_SUITE_P(RuleChecks, KeepsTheUnitRuleContract, IsExactOnRandomTinyRbms, IsExactOnTinyRbmsWithTies,
                            SamplesItsExactTransitionRows);
