#pragma once
// Checks of option values whose messages a person can read: CLI11's PositiveNumber names the largest double
// (a 300-digit bound) when it refuses 0.
#include <CLI/CLI.hpp>
#include <string>

namespace rbmix::cli {

// A whole number of at least `minimum`, refused with "must be a whole number of at least M, got X".
inline CLI::Validator whole_number_at_least(long long minimum) {
  return CLI::Validator(
      [minimum](std::string& input) {
        long long value = 0;
        if (CLI::detail::lexical_cast(input, value) && value >= minimum) return std::string();
        return "must be a whole number of at least " + std::to_string(minimum) + ", got " + input;
      },
      "INT >= " + std::to_string(minimum));
}

// A whole number of at least 1 (units, samples, chains).
inline const CLI::Validator positive_count = whole_number_at_least(1);
// A whole number of at least 0 (how many samples a picture shows).
inline const CLI::Validator non_negative_count = whole_number_at_least(0);

}  // namespace rbmix::cli
