#pragma once
// What every `rbmix data` subcommand shares: the count ranges of its options and how it saves and reports a file.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/option_checks.hpp"  // positive_count, non_negative_count

namespace rbmix::cli {

// An explicit range: CLI11's PositiveNumber names the largest double in its message ("Value 0 not in range
// 0.000000 to 1797...").
inline const CLI::Range positive_int(1, std::numeric_limits<int>::max());

// Saves `data` as a 0/1 .npy file and says so.
void save_and_report(const std::string& file, const BinaryMatrix& data);
// Saves labels as a uint8 .npy vector and says so.
void save_labels(const std::filesystem::path& file, const std::vector<std::uint8_t>& labels);

}  // namespace rbmix::cli
