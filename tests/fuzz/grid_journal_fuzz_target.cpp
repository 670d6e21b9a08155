// Fuzz target: the readers of an experiment grid's journal (job_journal.hpp): a job file (JobJournal::read, then the
// exact numbers of the result it holds, and the result decoded as a training summary and as mixing diagnostics, as
// their from_grid_json reads them, with the checks of their values) and journal/grid.json
// (read_grid_record). The input is written as a job file of phase 0 and as grid.json of a scratch output directory;
// when it is a JSON object, a copy with its checksum recomputed goes to phase 1 as well, so that the checks behind
// the checksum (grid, phase, job, the values) are reached as a forged entry would reach them.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz_input.hpp"
#include "grid_journal_runs.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/experiments/exact_number.hpp"
#include "rbmix/experiments/training_trials.hpp"
#include "rbmix/jobs/job_journal.hpp"

namespace {

void remove_scratch();

// One scratch output directory per process, removed when it ends (registered once the path exists, so that the
// removal runs before the path's own destruction).
const std::filesystem::path& scratch() {
  static const std::filesystem::path directory =
      std::filesystem::temp_directory_path() / ("rbmix-fuzz-grid-journal-" + std::to_string(::getpid()));
  static const bool registered = std::atexit(remove_scratch) == 0;
  static_cast<void>(registered);
  return directory;
}

void remove_scratch() { std::filesystem::remove_all(scratch()); }

void write(const std::filesystem::path& file, const std::string& bytes) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

// Every string of a journaled result read as an exact number: the values a job's from_grid_json reads.
void read_values(const nlohmann::json& json) {
  if (json.is_string()) {
    try {
      rbmix::experiments::read_exact_number(json);
    } catch (const rbmix::InputError&) {
    }
  } else if (json.is_structured()) {
    for (const auto& item : json) read_values(item);
  }
}

// The result decoded as the journaled results that check their values do: a training run's summary (finite learning
// curve holding its best and final points) and a trace set's mixing diagnostics. A field missing or of the wrong
// type is a JSON exception, which run_jobs reports naming the file.
void decode_results(const nlohmann::json& result) {
  try {
    rbmix::TrainingSummary summary;
    from_grid_json(result, summary);
  } catch (const rbmix::InputError&) {
  } catch (const nlohmann::json::exception&) {
  }
  try {
    rbmix::experiments::read_exact_diagnostics(result);
  } catch (const rbmix::InputError&) {
  } catch (const nlohmann::json::exception&) {
  }
}

void read_journal(std::size_t phase) {
  try {
    const rbmix::experiments::JobJournal journal(scratch(), phase, rbmix::fuzz::grid_journal_identity());
    for (const auto& [job, outcome] : journal.read()) {
      if (!outcome.succeeded) continue;
      const nlohmann::json result = nlohmann::json::parse(outcome.text, nullptr, false);
      read_values(result);
      decode_results(result);
    }
  } catch (const rbmix::InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace experiments = rbmix::experiments;
  const std::string bytes = rbmix::fuzz::as_string(data, size);
  const auto identity = rbmix::fuzz::grid_journal_identity();
  const experiments::JobJournal raw(scratch(), 0, identity), resealed(scratch(), 1, identity);
  const std::size_t job = rbmix::fuzz::grid_journal_job;
  write(raw.job_file(job), bytes);
  write(experiments::journal_directory(scratch()) / "grid.json", bytes);
  std::filesystem::remove(resealed.job_file(job));
  nlohmann::json entry = nlohmann::json::parse(bytes, nullptr, false);
  if (entry.is_object()) {
    entry.erase("checksum");
    entry["checksum"] = experiments::journal_checksum(entry.dump());
    write(resealed.job_file(job), entry.dump());
  }
  read_journal(0);
  read_journal(1);
  try {
    experiments::read_grid_record(scratch());
  } catch (const rbmix::InputError&) {
  }
  return 0;
}
