#include "rbmix/experiments/exact_number.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {

namespace {

// Throws InputError unless `json` is an object holding every key of `keys`; `what` names the record in the message
// ("a journaled estimate is not an object: …", "… has no 'time'").
void require_fields(const nlohmann::json& json, std::initializer_list<const char*> keys, const std::string& what) {
  require(json.is_object(), what + " is not an object: " + json.dump());
  for (const char* key : keys) require(json.contains(key), what + " has no '" + key + "'");
}

}  // namespace

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
  // strtod reads a finite-looking text beyond a double's range (1e999, 0x1p+99999) as ±infinity.
  const bool written_finite = digits.find_first_of("0123456789") == (digits[0] == '-' ? 1u : 0u);
  require(std::isfinite(value) || !written_finite, "'" + digits + "' is out of the range of a double");
  // Only exact_number's own text is read: then the journal's bytes say exactly which double it holds.
  require(exact_number(value) == text, "'" + digits + "' is not written as exact_number writes (hexadecimal, e.g. " +
                                           exact_number(value).get<std::string>() + ")");
  return value;
}

namespace {

template <typename Dense>
nlohmann::json exact_dense(const Dense& dense) {
  nlohmann::json values = nlohmann::json::array();
  for (Eigen::Index index = 0; index < dense.size(); ++index) values.push_back(exact_number(dense.data()[index]));
  return {{"rows", dense.rows()}, {"cols", dense.cols()}, {"values", values}};
}

template <typename Dense>
Dense read_exact_dense(const nlohmann::json& json) {
  require(json.is_object() && json.contains("rows") && json.contains("cols") && json.contains("values"),
          "expected a matrix written as {rows, cols, values}");
  const auto rows = json.at("rows").get<Eigen::Index>(), cols = json.at("cols").get<Eigen::Index>();
  const nlohmann::json& values = json.at("values");
  require(rows >= 0 && cols >= 0 && values.is_array() && values.size() == static_cast<std::size_t>(rows * cols),
          "a matrix's values do not match its " + std::to_string(rows) + "×" + std::to_string(cols) + " shape");
  if constexpr (Dense::ColsAtCompileTime == 1) require(cols == 1, "expected a vector, got several columns");
  Dense dense(rows, cols);
  for (Eigen::Index index = 0; index < dense.size(); ++index)
    dense.data()[index] = read_exact_number(values[static_cast<std::size_t>(index)]);
  return dense;
}

}  // namespace

nlohmann::json exact_matrix(const MatrixD& matrix) { return exact_dense(matrix); }
nlohmann::json exact_vector(const VectorD& vector) { return exact_dense(vector); }
MatrixD read_exact_matrix(const nlohmann::json& json) { return read_exact_dense<MatrixD>(json); }
VectorD read_exact_vector(const nlohmann::json& json) { return read_exact_dense<VectorD>(json); }

nlohmann::json exact_numbers(const std::vector<double>& values) {
  nlohmann::json out = nlohmann::json::array();
  for (const double value : values) out.push_back(exact_number(value));
  return out;
}

std::vector<double> read_exact_numbers(const nlohmann::json& json) {
  require(json.is_array(), "a journaled list of numbers is not a list");
  std::vector<double> values;
  for (const auto& value : json) values.push_back(read_exact_number(value));
  return values;
}

nlohmann::json exact_rbm(const Rbm& rbm) {
  return {{"weights", exact_matrix(rbm.weights)},
          {"visible_bias", exact_vector(rbm.visible_bias)},
          {"hidden_bias", exact_vector(rbm.hidden_bias)}};
}

Rbm read_exact_rbm(const nlohmann::json& json) {
  require(json.is_object(), "a journaled RBM is not an object");
  Rbm rbm;
  rbm.weights = read_exact_matrix(json.at("weights"));
  rbm.visible_bias = read_exact_vector(json.at("visible_bias"));
  rbm.hidden_bias = read_exact_vector(json.at("hidden_bias"));
  rbm.validate("a journaled RBM");
  return rbm;
}

std::string hex_bytes(const std::vector<std::uint8_t>& bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text;
  text.reserve(2 * bytes.size());
  for (const std::uint8_t byte : bytes) {
    text += digits[byte >> 4];
    text += digits[byte & 0xF];
  }
  return text;
}

std::vector<std::uint8_t> read_hex_bytes(const nlohmann::json& json) {
  require(json.is_string(), "journaled bytes are not a string");
  const std::string& text = json.get_ref<const std::string&>();
  require(text.size() % 2 == 0, "journaled bytes: a hexadecimal string of odd length");
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    throw InputError(std::string("journaled bytes: '") + c + "' is not a lowercase hexadecimal digit");
  };
  std::vector<std::uint8_t> bytes(text.size() / 2);
  for (std::size_t k = 0; k < bytes.size(); ++k)
    bytes[k] = static_cast<std::uint8_t>(16 * digit(text[2 * k]) + digit(text[2 * k + 1]));
  return bytes;
}

nlohmann::json exact_estimate(const analysis::IntegratedTimeEstimate& estimate) {
  return {{"method", estimate.method},
          {"time", exact_number(estimate.time)},
          {"lower", exact_number(estimate.lower)},
          {"upper", exact_number(estimate.upper)},
          {"cutoff", estimate.cutoff},
          {"trusted", estimate.trusted},
          {"warning", estimate.warning},
          {"band_lower", exact_number(estimate.band_lower)},
          {"band_upper", exact_number(estimate.band_upper)}};
}

analysis::IntegratedTimeEstimate read_exact_estimate(const nlohmann::json& json) {
  require_fields(json, {"method", "time", "lower", "upper", "cutoff", "trusted", "warning", "band_lower", "band_upper"},
                 "a journaled estimate");
  require(json.at("method").is_string() && json.at("warning").is_string() && json.at("trusted").is_boolean() &&
              json.at("cutoff").is_number_integer(),
          "a journaled estimate's method, warning, trusted or cutoff has the wrong type: " + json.dump());
  return {json.at("method").get<std::string>(),   read_exact_number(json.at("time")),
          read_exact_number(json.at("lower")),    read_exact_number(json.at("upper")),
          json.at("cutoff").get<Eigen::Index>(),  json.at("trusted").get<bool>(),
          json.at("warning").get<std::string>(),  read_exact_number(json.at("band_lower")),
          read_exact_number(json.at("band_upper"))};
}

namespace {

nlohmann::json exact_signals(const analysis::TrustSignals& signals) {
  return {{"method_warning", signals.method_warning},
          {"potential_scale_reduction", exact_number(signals.potential_scale_reduction)},
          {"nested", signals.nested},
          {"length_in_times", exact_number(signals.length_in_times)},
          {"relative_half_width", exact_number(signals.relative_half_width)},
          {"disagreement", exact_number(signals.disagreement)},
          {"batch_in_times", exact_number(signals.batch_in_times)}};
}

analysis::TrustSignals read_exact_signals(const nlohmann::json& json) {
  require_fields(json,
                 {"method_warning", "potential_scale_reduction", "nested", "length_in_times", "relative_half_width",
                  "disagreement", "batch_in_times"},
                 "a journaled set of trust signals");
  require(json.at("method_warning").is_string() && json.at("nested").is_boolean(),
          "journaled trust signals' method_warning is not a string or nested not a boolean");
  return {json.at("method_warning").get<std::string>(),   read_exact_number(json.at("potential_scale_reduction")),
          read_exact_number(json.at("length_in_times")),     read_exact_number(json.at("relative_half_width")),
          read_exact_number(json.at("disagreement")),        read_exact_number(json.at("batch_in_times")),
          json.at("nested").get<bool>()};
}

}  // namespace

nlohmann::json exact_diagnostics(const analysis::MixingDiagnostics& diagnostics) {
  nlohmann::json estimates = nlohmann::json::array(), signals = nlohmann::json::array();
  for (const auto& estimate : diagnostics.estimates) estimates.push_back(exact_estimate(estimate));
  for (const auto& signal : diagnostics.signals) signals.push_back(exact_signals(signal));
  return {{"steps", diagnostics.steps},
          {"chains", diagnostics.chains},
          {"potential_scale_reduction", exact_number(diagnostics.potential_scale_reduction)},
          {"bulk_effective_sample_size", exact_number(diagnostics.bulk_effective_sample_size)},
          {"tail_effective_sample_size", exact_number(diagnostics.tail_effective_sample_size)},
          {"long_batch_means", exact_estimate(diagnostics.long_batch_means)},
          {"estimates", estimates},
          {"signals", signals}};
}

analysis::MixingDiagnostics read_exact_diagnostics(const nlohmann::json& json) {
  require_fields(json,
                 {"steps", "chains", "potential_scale_reduction", "bulk_effective_sample_size",
                  "tail_effective_sample_size", "long_batch_means", "estimates", "signals"},
                 "a journaled diagnostics record");
  require(json.at("steps").is_number_integer() && json.at("chains").is_number_integer(),
          "journaled diagnostics' steps or chains is not an integer");
  require(json.at("estimates").is_array() && json.at("signals").is_array() &&
              json.at("estimates").size() == json.at("signals").size(),
          "journaled diagnostics need as many trust signals as estimates");
  analysis::MixingDiagnostics diagnostics;
  diagnostics.steps = json.at("steps").get<Eigen::Index>();
  diagnostics.chains = json.at("chains").get<Eigen::Index>();
  diagnostics.potential_scale_reduction = read_exact_number(json.at("potential_scale_reduction"));
  diagnostics.bulk_effective_sample_size = read_exact_number(json.at("bulk_effective_sample_size"));
  diagnostics.tail_effective_sample_size = read_exact_number(json.at("tail_effective_sample_size"));
  diagnostics.long_batch_means = read_exact_estimate(json.at("long_batch_means"));
  for (const auto& estimate : json.at("estimates")) diagnostics.estimates.push_back(read_exact_estimate(estimate));
  for (const auto& signal : json.at("signals")) diagnostics.signals.push_back(read_exact_signals(signal));
  return diagnostics;
}

}  // namespace rbmix::experiments
