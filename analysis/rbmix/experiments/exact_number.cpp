#include "rbmix/experiments/exact_number.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
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

analysis::IntegratedTimeEstimate read_exact_estimate(const JournaledValue& json) {
  analysis::IntegratedTimeEstimate estimate{json["method"].text(),
                                            json["time"].number(),
                                            json["lower"].number(),
                                            json["upper"].number(),
                                            json["cutoff"].integer<Eigen::Index>(0),
                                            json["trusted"].flag(),
                                            json["warning"].text(),
                                            json["band_lower"].number(),
                                            json["band_upper"].number()};
  // NaN marks an undefined estimate; an interval that is defined is ordered and holds the estimator's own band.
  const auto ordered = [](double low, double high) { return std::isnan(low) || std::isnan(high) || low <= high; };
  json["upper"].require_that(ordered(estimate.lower, estimate.upper), "below its lower end");
  json["band_upper"].require_that(ordered(estimate.band_lower, estimate.band_upper), "below its lower end");
  json["band_lower"].require_that(ordered(estimate.lower, estimate.band_lower), "below the interval's lower end");
  json["band_upper"].require_that(ordered(estimate.band_upper, estimate.upper), "above the interval's upper end");
  // A trusted estimate is one the trust rule read: a finite τ̂ in a finite interval, and no warning.
  json["trusted"].require_that(!estimate.trusted || (std::isfinite(estimate.time) && std::isfinite(estimate.lower) &&
                                                     std::isfinite(estimate.upper) && estimate.warning.empty()),
                               "true for an estimate without a finite time and interval, or with a warning");
  return estimate;
}

analysis::IntegratedTimeEstimate read_exact_estimate(const nlohmann::json& json) {
  return read_exact_estimate(JournaledValue(json));
}

namespace {

nlohmann::json exact_signals(const analysis::TrustSignals& signals) {
  return {{"method_warning", signals.method_warning},
          {"potential_scale_reduction", exact_number(signals.potential_scale_reduction)},
          {"nested", signals.nested},
          {"length_in_times", exact_number(signals.length_in_times)},
          {"relative_half_width", exact_number(signals.relative_half_width)},
          {"disagreement", exact_number(signals.disagreement)},
          {"batch_in_times", exact_number(signals.batch_in_times)},
          {"chain_jackknife_half_width", exact_number(signals.chain_jackknife_half_width)}};
}

analysis::TrustSignals read_exact_signals(const JournaledValue& json) {
  return {json["method_warning"].text(),
          json["potential_scale_reduction"].number(),
          json["length_in_times"].number(),
          json["relative_half_width"].number(),
          json["disagreement"].number(),
          json["batch_in_times"].number(),
          json["chain_jackknife_half_width"].number(),
          json["nested"].flag()};
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

analysis::MixingDiagnostics read_exact_diagnostics(const JournaledValue& json) {
  analysis::MixingDiagnostics diagnostics;
  diagnostics.steps = json["steps"].integer<Eigen::Index>(0);
  diagnostics.chains = json["chains"].integer<Eigen::Index>(0);
  diagnostics.potential_scale_reduction = json["potential_scale_reduction"].number();
  diagnostics.bulk_effective_sample_size = json["bulk_effective_sample_size"].number();
  diagnostics.tail_effective_sample_size = json["tail_effective_sample_size"].number();
  diagnostics.long_batch_means = read_exact_estimate(json["long_batch_means"]);
  for (const JournaledValue& estimate : json["estimates"].elements())
    diagnostics.estimates.push_back(read_exact_estimate(estimate));
  for (const JournaledValue& signal : json["signals"].elements())
    diagnostics.signals.push_back(read_exact_signals(signal));
  json["signals"].require_that(diagnostics.signals.size() == diagnostics.estimates.size(),
                               "not one set of trust signals per estimate");
  return diagnostics;
}

analysis::MixingDiagnostics read_exact_diagnostics(const nlohmann::json& json) {
  return read_exact_diagnostics(JournaledValue(json));
}

}  // namespace rbmix::experiments

namespace rbmix::experiments {

JournaledValue JournaledValue::operator[](const char* key) const {
  if (!json_->is_object()) refuse("not an object");
  const auto field = json_->find(key);
  if (field == json_->end()) refuse(std::string("no '") + key + "'");
  return JournaledValue(*field, path_.empty() ? std::string(key) : path_ + "." + key);
}

JournaledValue JournaledValue::element(std::size_t index) const {
  if (!json_->is_array() || index >= json_->size())
    refuse("not a list of more than " + std::to_string(index) + " elements");
  return JournaledValue((*json_)[index], path_ + "[" + std::to_string(index) + "]");
}

std::vector<JournaledValue> JournaledValue::elements() const {
  if (!json_->is_array()) refuse("not a list");
  std::vector<JournaledValue> elements;
  for (std::size_t index = 0; index < json_->size(); ++index) elements.push_back(element(index));
  return elements;
}

double JournaledValue::number() const { return read(read_exact_number); }

double JournaledValue::finite() const {
  const double value = number();
  if (!std::isfinite(value)) refuse(exact_number(value).get<std::string>() + " is not a finite number");
  return value;
}

double JournaledValue::finite_or_missing() const {
  const double value = number();
  if (std::isinf(value))
    refuse(exact_number(value).get<std::string>() + " is neither a finite number nor missing (nan)");
  return value;
}

double JournaledValue::within(double low, double high, Missing missing) const {
  const double value = missing == Missing::allowed ? finite_or_missing() : finite();
  if (!std::isnan(value) && (value < low || value > high)) {
    std::ostringstream why;
    why << exact_number(value).get<std::string>() << " is outside [" << low << ", " << high << "]";
    refuse(why.str());
  }
  return value;
}

double JournaledValue::at_least(double low) const {
  const double value = finite();
  if (value < low) {
    std::ostringstream why;
    why << exact_number(value).get<std::string>() << " is below " << low;
    refuse(why.str());
  }
  return value;
}

double JournaledValue::log_likelihood(Missing missing) const {
  const double value = number();
  if ((std::isnan(value) && missing == Missing::refused) || value == std::numeric_limits<double>::infinity())
    refuse(exact_number(value).get<std::string>() + " is not a log-likelihood (finite, or -inf for a diverged model)");
  return value;
}

bool JournaledValue::flag() const {
  if (!json_->is_boolean()) refuse(json_->dump() + " is not true or false");
  return json_->get<bool>();
}

std::string JournaledValue::text() const {
  if (!json_->is_string()) refuse(json_->dump() + " is not a string");
  return json_->get<std::string>();
}

void JournaledValue::require_that(bool holds, const std::string& why) const {
  if (!holds) refuse(why);
}

void JournaledValue::refuse(const std::string& why) const {
  throw InputError((path_.empty() ? std::string("the result") : "field '" + path_ + "'") + ": " + why);
}

}  // namespace rbmix::experiments
