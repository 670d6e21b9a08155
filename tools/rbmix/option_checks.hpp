#pragma once
// Checks of option values whose messages a person can read: CLI11's PositiveNumber names the largest double
// (a 300-digit bound) when it refuses 0.
#include <CLI/CLI.hpp>
#include <string>

namespace rbmix::cli {

// A whole number of at least 1 (units, samples, chains).
inline const CLI::Validator positive_count(
    [](std::string& input) {
      long long value = 0;
      if (CLI::detail::lexical_cast(input, value) && value >= 1) return std::string();
      return "must be a whole number of at least 1, got " + input;
    },
    "INT >= 1");

// A whole number of at least 0 (how many samples a picture shows).
inline const CLI::Validator non_negative_count(
    [](std::string& input) {
      long long value = 0;
      if (CLI::detail::lexical_cast(input, value) && value >= 0) return std::string();
      return "must be a whole number of at least 0, got " + input;
    },
    "INT >= 0");

}  // namespace rbmix::cli
