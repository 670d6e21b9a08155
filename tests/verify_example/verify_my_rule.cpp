// A correct rule written outside rbmix passes every check of rbmix::verify.
#include "my_rules.hpp"
#include "rule_checks.hpp"

INSTANTIATE_TYPED_TEST_SUITE_P(MyRule, RuleChecks, ::testing::Types<my_sampler::LazyGibbsRule>);
