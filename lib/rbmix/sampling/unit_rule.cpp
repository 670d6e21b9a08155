#include "rbmix/sampling/unit_rule.hpp"

#include <algorithm>
#include <exception>
#include <optional>
#include <sstream>
#include <utility>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

// The command-line form of a rule type: "gibbs", or "mix:A" for a parameterised rule.
template <ConcreteUnitRule Rule>
std::string written_form() {
  if constexpr (ParameterisedUnitRule<Rule>)
    return std::string(Rule::name) + ":" + std::string(Rule::parameter);
  else
    return std::string(Rule::name);
}

// Calls visit(Rule{}) for every alternative of UnitRule, in order.
template <typename Visit, std::size_t... Index>
void for_each_rule_type(Visit&& visit, std::index_sequence<Index...>) {
  (visit(std::variant_alternative_t<Index, UnitRule>{}), ...);
}
template <typename Visit>
void for_each_rule_type(Visit&& visit) {
  for_each_rule_type(std::forward<Visit>(visit), std::make_index_sequence<std::variant_size_v<UnitRule>>{});
}

// `text` as a rule of type Rule, or nothing when its name is another rule's.
template <ConcreteUnitRule Rule>
std::optional<UnitRule> parse_as(std::string_view text) {
  if constexpr (ParameterisedUnitRule<Rule>) {
    const std::string prefix = std::string(Rule::name) + ":";
    if (!text.starts_with(prefix)) return std::nullopt;
    return UnitRule{Rule::parse_parameter(text.substr(prefix.size()))};
  } else {
    if (text != Rule::name) return std::nullopt;
    return UnitRule{Rule{}};
  }
}

// The whole of `text` as a number in [0, 1], or nothing.
std::optional<double> parse_unit_interval_number(std::string_view text) {
  const std::string number(text);
  std::size_t used = 0;
  double value = -1.0;
  try {
    value = std::stod(number, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (!(used == number.size() && used > 0 && value >= 0.0 && value <= 1.0)) return std::nullopt;
  return value;
}

// Columns `text` takes in a terminal: its UTF-8 code points ("γ" is two bytes, one column).
std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char byte) { return (static_cast<unsigned char>(byte) & 0xC0) != 0x80; }));
}

}  // namespace

MixtureRule MixtureRule::parse_parameter(std::string_view text) {
  const auto alpha = parse_unit_interval_number(text);
  if (!alpha)
    throw InputError("unit rule 'mix:" + std::string(text) +
                     "': the mixture weight after 'mix:' must be a number in [0, 1]");
  return MixtureRule{*alpha};
}

std::string MixtureRule::parameter_text() const {
  std::ostringstream out;
  out << flip_weight;
  return out.str();
}

UnitModifiedRule UnitModifiedRule::parse_parameter(std::string_view text) {
  const auto gamma = parse_unit_interval_number(text);
  if (!gamma)
    throw InputError("unit rule 'unit-modified:" + std::string(text) +
                     "': the shift γ after 'unit-modified:' must be a number in [0, 1]");
  return UnitModifiedRule{*gamma};
}

std::string UnitModifiedRule::parameter_text() const {
  std::ostringstream out;
  out << shift;
  return out.str();
}

UnitRule parse_unit_rule(std::string_view text) {
  std::optional<UnitRule> parsed;
  for_each_rule_type([&](auto rule) {
    if (!parsed) parsed = parse_as<decltype(rule)>(text);
  });
  if (!parsed)
    throw InputError("unknown unit rule '" + std::string(text) + "' (expected one of " + unit_rule_names() + ")");
  return *parsed;
}

std::string to_string(const UnitRule& rule) {
  return std::visit(
      [](const auto& concrete) -> std::string {
        using Rule = std::decay_t<decltype(concrete)>;
        if constexpr (ParameterisedUnitRule<Rule>)
          return std::string(Rule::name) + ":" + concrete.parameter_text();
        else
          return std::string(Rule::name);
      },
      rule);
}

std::string unit_rule_names() {
  std::string names;
  for_each_rule_type([&](auto rule) { names += (names.empty() ? "" : ", ") + written_form<decltype(rule)>(); });
  return names;
}

std::string unit_rule_help() {
  std::size_t width = 0;
  for_each_rule_type([&](auto rule) { width = std::max(width, display_width(written_form<decltype(rule)>())); });
  std::string help;
  for_each_rule_type([&](auto rule) {
    using Rule = decltype(rule);
    const std::string name = written_form<Rule>();
    help += "  " + name + std::string(width - display_width(name) + 2, ' ') + std::string(Rule::description) + "\n";
  });
  return help;
}

}  // namespace rbmix
