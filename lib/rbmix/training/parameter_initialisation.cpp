#include "rbmix/training/parameter_initialisation.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "rbmix/core/error.hpp"

namespace rbmix {

ParameterInitialisation parse_parameter_initialisation(std::string_view text) {
  if (text == "base-rate") return {};
  if (text == "zero") return {ParameterInitialisation::Biases::zero};
  const std::string_view prefix = "normal:";
  const std::string refusal =
      "--init: expected base-rate, zero or normal:S with a standard deviation S > 0, got '" + std::string(text) + "'";
  require(text.substr(0, prefix.size()) == prefix, refusal);
  const std::string digits(text.substr(prefix.size()));
  char* end = nullptr;
  const double scale = std::strtod(digits.c_str(), &end);
  require(!digits.empty() && end == digits.c_str() + digits.size() && scale > 0.0 && std::isfinite(scale), refusal);
  return {ParameterInitialisation::Biases::normal, scale};
}

std::string to_string(const ParameterInitialisation& initialisation) {
  switch (initialisation.biases) {
    case ParameterInitialisation::Biases::base_rate:
      return "base-rate";
    case ParameterInitialisation::Biases::zero:
      return "zero";
    case ParameterInitialisation::Biases::normal:
      break;
  }
  char text[64];
  std::snprintf(text, sizeof text, "normal:%.17g", initialisation.scale);
  return text;
}

void apply(const ParameterInitialisation& initialisation, TrainingOptions& options) {
  using Biases = ParameterInitialisation::Biases;
  options.initial_weight_scale = initialisation.scale;
  options.base_rate_visible_bias = initialisation.biases == Biases::base_rate;
  options.initial_bias_scale = initialisation.biases == Biases::normal ? initialisation.scale : 0.0;
}

}  // namespace rbmix
