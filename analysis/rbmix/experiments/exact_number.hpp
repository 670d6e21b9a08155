#pragma once
// Doubles in a job's journaled result, written so that reading them back gives the same bits: a hexadecimal
// floating-point string ("0x1.8p+1"), which also carries NaN and ±infinity, where JSON's numbers do not.
#include <nlohmann/json.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "rbmix/analysis/integrated_autocorrelation_time.hpp"
#include "rbmix/core/types.hpp"
#include "rbmix/model/rbm.hpp"

namespace rbmix::experiments {

nlohmann::json exact_number(double value);
// Throws InputError if `text` is not a string exact_number writes: out of a double's range, a decimal, any other
// spelling. Infinity and NaN are read back as exact_number writes them ("inf", "-inf", "nan"): results hold them by
// design (a diverged model's log-likelihood, an undefined estimate).
double read_exact_number(const nlohmann::json& text);

// A list of doubles, each an exact number; read_exact_numbers throws InputError unless `json` is such a list.
nlohmann::json exact_numbers(const std::vector<double>& values);
std::vector<double> read_exact_numbers(const nlohmann::json& json);

// An autocorrelation-time estimate as {method, time, lower, upper, cutoff, trusted, warning}, its doubles exact
// numbers; read_exact_estimate throws InputError naming what is missing or malformed.
nlohmann::json exact_estimate(const analysis::IntegratedTimeEstimate& estimate);
analysis::IntegratedTimeEstimate read_exact_estimate(const nlohmann::json& json);

// Everything mixing_diagnostics says about one trace set (steps, chains, R̂, bulk and tail ESS, every estimate and
// its trust signals), its doubles exact numbers; read_exact_diagnostics throws InputError naming what is missing or
// malformed, or when the estimates and signals differ in number.
nlohmann::json exact_diagnostics(const analysis::MixingDiagnostics& diagnostics);
analysis::MixingDiagnostics read_exact_diagnostics(const nlohmann::json& json);

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
