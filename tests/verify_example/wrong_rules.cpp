// The same checks reject two wrong rules: this program is expected to fail (check-verify-example.sh asserts that,
// and which checks fail with which message).
#include "my_rules.hpp"
#include "rule_checks.hpp"

using WrongRules = ::testing::Types<my_sampler::FlipWithoutTieRule, my_sampler::SignErrorGibbsRule>;
INSTANTIATE_TYPED_TEST_SUITE_P(WrongRule, RuleChecks, WrongRules);
