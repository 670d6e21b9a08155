#include "rbmix/experiments/exact_number.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {

nlohmann::json exact_number(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%a", value);
  return text;
}

double read_exact_number(const nlohmann::json& text) {
  require(text.is_string(), "expected a number written as a hexadecimal string, got " + text.dump());
  const std::string& digits = text.get_ref<const std::string&>();
  char* end = nullptr;
  const double value = std::strtod(digits.c_str(), &end);
  require(!digits.empty() && end == digits.c_str() + digits.size(), "'" + digits + "' is not a number");
  return value;
}

}  // namespace rbmix::experiments
