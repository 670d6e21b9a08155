#pragma once
// Doubles in a job's journaled result, written so that reading them back gives the same bits: a hexadecimal
// floating-point string ("0x1.8p+1"), which also carries NaN and ±infinity, where JSON's numbers do not.
#include <nlohmann/json.hpp>

namespace rbmix::experiments {

nlohmann::json exact_number(double value);
// Throws InputError if `text` is not a string written by exact_number.
double read_exact_number(const nlohmann::json& text);

}  // namespace rbmix::experiments
