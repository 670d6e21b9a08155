#pragma once
// The help of --operator, the same in every command that samples with one unit rule (`analyze --operators` takes a
// list of them, plus modified:RULE). The rules are listed from the rule table itself (unit_rule_help), so a new rule
// appears here without an edit.
#include <string>
#include <string_view>

#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix::cli {

// "<what the option sets>, one of" followed by one line per rule.
inline std::string operator_help(std::string_view role = "unit rule") {
  return std::string(role) + ", one of\n" + unit_rule_help();
}

}  // namespace rbmix::cli
