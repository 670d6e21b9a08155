#include "rbmix/experiments/experiment.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {
namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) items.push_back(item);
  if (!text.empty() && text.back() == ',') items.emplace_back();
  return items;
}

// The whole of `text` as one integer or number (from_chars: no locale, no leading '+' or blanks, no trailing text).
template <typename Number>
std::optional<Number> parse_whole(const std::string& text) {
  Number value{};
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || stop != end) return std::nullopt;
  return value;
}

std::int64_t integer_value(const std::string& name, const std::string& item, std::int64_t minimum) {
  const auto value = parse_whole<std::int64_t>(item);
  require(value.has_value(), name + " '" + item + "' is not an integer");
  require(*value >= minimum, name + " must be at least " + std::to_string(minimum) + ", got " + item);
  return *value;
}

double number_value(const std::string& name, const std::string& item, bool positive) {
  const auto value = parse_whole<double>(item);
  require(value.has_value() && std::isfinite(*value), name + " '" + item + "' is not a finite number");
  require(!positive || *value > 0.0, name + " must be positive, got " + item);
  return *value;
}

}  // namespace

std::optional<std::int64_t> ExperimentInputs::integer(const std::string& name, std::int64_t minimum) const {
  const auto found = given.find(name);
  if (found == given.end()) return std::nullopt;
  return integer_value(name, found->second, minimum);
}

std::optional<double> ExperimentInputs::number(const std::string& name) const {
  const auto found = given.find(name);
  if (found == given.end()) return std::nullopt;
  return number_value(name, found->second, false);
}

std::optional<double> ExperimentInputs::positive_number(const std::string& name) const {
  const auto found = given.find(name);
  if (found == given.end()) return std::nullopt;
  return number_value(name, found->second, true);
}

std::optional<std::vector<std::int64_t>> ExperimentInputs::integers(const std::string& name,
                                                                    std::int64_t minimum) const {
  const auto found = given.find(name);
  if (found == given.end()) return std::nullopt;
  const std::string& text = found->second;
  std::vector<std::int64_t> values;
  const auto colon = text.find(':');
  if (colon != std::string::npos) {  // a range A:B
    const std::int64_t first = integer_value(name, text.substr(0, colon), minimum);
    const std::int64_t last = integer_value(name, text.substr(colon + 1), minimum);
    require(first <= last, name + " '" + text + "': the range A:B needs A <= B");
    require(last - first < 1000000, name + " '" + text + "': the range holds more than 10^6 values");
    for (std::int64_t value = first; value <= last; ++value) values.push_back(value);
  } else {
    for (const std::string& item : split_list(text)) values.push_back(integer_value(name, item, minimum));
  }
  require(!values.empty(), name + ": no values");
  return values;
}

std::optional<std::vector<double>> ExperimentInputs::numbers(const std::string& name) const {
  const auto found = given.find(name);
  if (found == given.end()) return std::nullopt;
  std::vector<double> values;
  for (const std::string& item : split_list(found->second)) values.push_back(number_value(name, item, false));
  require(!values.empty(), name + ": no values");
  return values;
}

std::optional<std::vector<double>> ExperimentInputs::positive_numbers(const std::string& name) const {
  const auto found = given.find(name);
  if (found == given.end()) return std::nullopt;
  std::vector<double> values;
  for (const std::string& item : split_list(found->second)) values.push_back(number_value(name, item, true));
  require(!values.empty(), name + ": no values");
  return values;
}

std::optional<std::vector<std::string>> ExperimentInputs::words(const std::string& name) const {
  const auto found = given.find(name);
  if (found == given.end()) return std::nullopt;
  std::vector<std::string> values = split_list(found->second);
  for (const std::string& item : values) require(!item.empty(), name + " '" + found->second + "': an empty item");
  require(!values.empty(), name + ": no values");
  return values;
}

std::optional<std::string> ExperimentInputs::text(const std::string& name) const {
  const auto found = given.find(name);
  if (found == given.end()) return std::nullopt;
  return found->second;
}

std::optional<std::filesystem::path> ExperimentInputs::directory(const std::string& name) const {
  const auto found = given.find(name);
  if (found == given.end()) return std::nullopt;
  require(std::filesystem::is_directory(found->second), name + ": '" + found->second + "' is not a directory");
  return std::filesystem::path(found->second);
}

double seconds_since(const std::chrono::steady_clock::time_point& start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace rbmix::experiments
