#pragma once
// Every built-in unit rule, made from the one list of rule types (the alternatives of UnitRule): a rule without a
// parameter once; a parameterised rule at an interior parameter (0.3) and at the end of its range (1), where
// unit-modified:1 loses ergodicity at ties and mix:1 is T. A new rule therefore joins every test that iterates this
// list. (Every parameter of today's rules lies in [0, 1].)
#include <variant>
#include <vector>

#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix::testing {

namespace detail {
template <typename Rule>
void append_examples(std::vector<UnitRule>& rules) {
  if constexpr (ParameterisedUnitRule<Rule>) {
    rules.emplace_back(Rule::parse_parameter("0.3"));
    rules.emplace_back(Rule::parse_parameter("1"));
  } else {
    rules.emplace_back(Rule{});
  }
}

template <typename... Rules>
std::vector<UnitRule> examples_of(std::variant<Rules...>*) {
  std::vector<UnitRule> rules;
  (append_examples<Rules>(rules), ...);
  return rules;
}
}  // namespace detail

inline std::vector<UnitRule> every_builtin_rule() { return detail::examples_of(static_cast<UnitRule*>(nullptr)); }

}  // namespace rbmix::testing
