#pragma once
// Every result rbmix writes sits beside a record of how it was made: the command, the full configuration, the
// seed, the rbmix version, the thread count and the time, so that any figure can be regenerated.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rbmix/io/output_file.hpp"  // prepare_output_directory, which the writers of results call first

namespace rbmix {

// {"rbmix_version", "command", "seed", "configuration", "threads", "started_utc"}.
nlohmann::json make_run_record(const std::string& command, const nlohmann::json& configuration, std::uint64_t seed);

// Writes JSON (indented) by write_output_file: atomically for a regular file, so an interrupted write never leaves
// half a file.
void write_json_file(const std::filesystem::path& path, const nlohmann::json& value);

// Writes `directory`/run.json: `record` with "files" listing `files` (the names of the files written beside it, in
// order) and run.json itself, so that every result directory says what it holds.
void write_run_record(const std::filesystem::path& directory, nlohmann::json record, std::vector<std::string> files);

}  // namespace rbmix
