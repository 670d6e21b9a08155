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

}  // namespace rbmix::cli
