#include "rbmix/sampling/unit_rule.hpp"

#include <charconv>
#include <sstream>

#include "rbmix/core/error.hpp"

namespace rbmix {

UnitRule parse_unit_rule(std::string_view text) {
  if (text == GibbsRule::name) return GibbsRule{};
  if (text == FlipTheStateRule::name) return FlipTheStateRule{};
  if (text == NaiveFlipRule::name) return NaiveFlipRule{};
  const std::string prefix = std::string(MixtureRule::name) + ":";
  if (text.starts_with(prefix)) {
    const std::string number(text.substr(prefix.size()));
    std::size_t used = 0;
    double alpha = -1.0;
    try {
      alpha = std::stod(number, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    require(used == number.size() && used > 0 && alpha >= 0.0 && alpha <= 1.0,
            "unit rule '" + std::string(text) + "': the mixture weight after 'mix:' must be a number in [0, 1]");
    return MixtureRule{alpha};
  }
  throw InputError("unknown unit rule '" + std::string(text) + "' (expected gibbs, flip, naive or mix:A)");
}

std::string to_string(const UnitRule& rule) {
  return std::visit(
      [](const auto& concrete) -> std::string {
        using Rule = std::decay_t<decltype(concrete)>;
        if constexpr (std::is_same_v<Rule, MixtureRule>) {
          std::ostringstream out;
          out << MixtureRule::name << ':' << concrete.flip_weight;
          return out.str();
        } else {
          return std::string(Rule::name);
        }
      },
      rule);
}

}  // namespace rbmix
