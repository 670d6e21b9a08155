#pragma once
// Doubles in a job's journaled result, written so that reading them back gives the same bits: a hexadecimal
// floating-point string ("0x1.8p+1"), which also carries NaN and ±infinity, where JSON's numbers do not.
#include <nlohmann/json.hpp>
#include <concepts>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "rbmix/analysis/integrated_autocorrelation_time.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/core/types.hpp"
#include "rbmix/model/rbm.hpp"

namespace rbmix::experiments {

nlohmann::json exact_number(double value);
// Throws InputError if `text` is not a string exact_number writes: out of a double's range, a decimal, any other
// spelling. Infinity and NaN are read back as exact_number writes them ("inf", "-inf", "nan"): results hold them by
// design (a diverged model's log-likelihood, an undefined estimate).
double read_exact_number(const nlohmann::json& text);

// One value of a journaled result and where it lies in the result ("gibbs.estimates[2].time"): every experiment
// reads its results back through it, so that a damaged field is refused by name, saying which field and what is
// wrong with it (InputError "field 'gibbs.max_meeting': inf is not a finite number"), whatever the experiment.
// The journal's checksum catches damage to the bytes; these checks catch values that no run writes.
class JournaledValue {
 public:
  // The whole result; `path` names a part of it when a reader starts from there.
  explicit JournaledValue(const nlohmann::json& json, std::string path = "") : json_(&json), path_(std::move(path)) {}

  // A field of this object or an element of this list; refused unless there is one.
  JournaledValue operator[](const char* key) const;
  JournaledValue element(std::size_t index) const;
  // The elements of this list; refused unless it is a list.
  std::vector<JournaledValue> elements() const;

  // Whether NaN, "not available", is read where a number is expected.
  enum class Missing { refused, allowed };

  // An exact number (exact_number.hpp), infinities and NaN included, for a value that holds them by design.
  double number() const;
  // An exact number that is finite.
  double finite() const;
  // A finite exact number, or NaN where the result has none ("not available", an undefined estimate).
  double finite_or_missing() const;
  // A finite exact number in [low, high] (a SLEM, a share), or NaN if `missing` is allowed.
  double within(double low, double high, Missing missing = Missing::refused) const;
  // A finite exact number of at least `low` (a time in seconds, a size: 0).
  double at_least(double low) const;
  // A log-likelihood: a finite exact number, or −∞ where the model diverged; +∞ is refused, and so is NaN unless
  // `missing` is allowed (a score the run does not evaluate).
  double log_likelihood(Missing missing = Missing::refused) const;
  // An integer in Integer's range (a count, an index: at least `least`).
  template <std::integral Integer>
  Integer integer(Integer least = std::numeric_limits<Integer>::lowest()) const;
  bool flag() const;
  std::string text() const;
  bool is_null() const { return json_->is_null(); }

  // reader(json) for a part that another routine reads (an estimate, an RBM), its refusal prefixed by this path.
  template <typename Reader>
  auto read(Reader&& reader) const -> decltype(reader(std::declval<const nlohmann::json&>()));
  // Throws InputError naming this field unless `holds`: a relation the reader checks between fields.
  void require_that(bool holds, const std::string& why) const;
  [[noreturn]] void refuse(const std::string& why) const;

 private:
  const nlohmann::json* json_;
  std::string path_;
};

template <std::integral Integer>
Integer JournaledValue::integer(Integer least) const {
  if (!json_->is_number_integer()) refuse(json_->dump() + " is not an integer");
  const bool in_range =
      json_->is_number_unsigned()
          ? json_->get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<Integer>::max())
          : std::in_range<Integer>(json_->get<std::int64_t>());
  if (!in_range || json_->get<Integer>() < least)
    refuse(json_->dump() + " is out of range (at least " + std::to_string(least) + ")");
  return json_->get<Integer>();
}

template <typename Reader>
auto JournaledValue::read(Reader&& reader) const -> decltype(reader(std::declval<const nlohmann::json&>())) {
  try {
    return reader(*json_);
  } catch (const InputError& error) {
    refuse(error.what());
  } catch (const nlohmann::json::exception&) {
    refuse("a part is missing or of the wrong type");
  }
}

// A list of doubles, each an exact number; read_exact_numbers throws InputError unless `json` is such a list.
nlohmann::json exact_numbers(const std::vector<double>& values);
std::vector<double> read_exact_numbers(const nlohmann::json& json);

// An autocorrelation-time estimate as {method, time, lower, upper, cutoff, trusted, warning}, its doubles exact
// numbers; read_exact_estimate throws InputError naming what is missing or malformed.
nlohmann::json exact_estimate(const analysis::IntegratedTimeEstimate& estimate);
analysis::IntegratedTimeEstimate read_exact_estimate(const nlohmann::json& json);
// The same, naming the field that is refused by its path; an estimate is refused also when a defined interval is not
// ordered or does not hold its band, or when it is trusted without a finite time and interval or with a warning.
analysis::IntegratedTimeEstimate read_exact_estimate(const JournaledValue& json);

// Everything mixing_diagnostics says about one trace set (steps, chains, R̂, bulk and tail ESS, every estimate and
// its trust signals), its doubles exact numbers; read_exact_diagnostics throws InputError naming what is missing or
// malformed, or when the estimates and signals differ in number.
nlohmann::json exact_diagnostics(const analysis::MixingDiagnostics& diagnostics);
analysis::MixingDiagnostics read_exact_diagnostics(const nlohmann::json& json);
analysis::MixingDiagnostics read_exact_diagnostics(const JournaledValue& json);

// A matrix or vector as {"rows", "cols", "values": exact numbers in storage order}, for results that carry a model.
nlohmann::json exact_matrix(const MatrixD& matrix);
nlohmann::json exact_vector(const VectorD& vector);
// Throw InputError if `json` was not written by exact_matrix (exact_vector: or is not one column).
MatrixD read_exact_matrix(const nlohmann::json& json);
VectorD read_exact_vector(const nlohmann::json& json);

// An RBM's parameters as {"weights", "visible_bias", "hidden_bias"}, each an exact matrix or vector.
nlohmann::json exact_rbm(const Rbm& rbm);
// Throws InputError unless `json` was written by exact_rbm, with biases that fit W and finite parameters.
Rbm read_exact_rbm(const nlohmann::json& json);

// Bytes as a lowercase hexadecimal string, for results that carry many small integers (a picture's 8-bit levels);
// read_hex_bytes throws InputError on an odd length or a character that is not a hexadecimal digit.
std::string hex_bytes(const std::vector<std::uint8_t>& bytes);
std::vector<std::uint8_t> read_hex_bytes(const nlohmann::json& json);

}  // namespace rbmix::experiments
