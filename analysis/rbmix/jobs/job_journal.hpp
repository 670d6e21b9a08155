#pragma once
// JobJournal: the finished jobs of a grid, kept in its output directory as they complete so that a grid killed at
// any moment loses only the jobs in flight. One file per job (journal/phase-P/job-NNNNNN.json), written
// atomically (a complete file or none), holding the job's serialized result or, for a failed job, its message. Each
// entry names the grid it belongs to (its identity: experiment, arguments, seed, version), its phase and its job,
// and a checksum covers all of that with the result: a file damaged later, copied from another run of the grid
// (another seed), from another phase, or renamed, is refused by name instead of feeding wrong numbers into a table.
// journal/grid.json records what the grid is (identity, shard, jobs per phase), so that a resume or a merge of
// another grid's jobs is refused.
#include <cstddef>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace rbmix::experiments {

struct JobOutcome {
  bool succeeded = true;
  std::string text;  // the serialized result, or the failure's message
};

class JobJournal {
 public:
  // The journal of phase `phase` (the phase-th grid an experiment runs) in `directory`/journal, of the grid whose
  // identity is `grid` (JobGridSettings::identity).
  JobJournal(std::filesystem::path directory, std::size_t phase, nlohmann::json grid);

  const std::filesystem::path& path() const { return phase_directory_; }
  std::filesystem::path job_file(std::size_t job) const;

  // Writes the job's file atomically (creating the journal's directory if needed).
  void record(std::size_t job, const JobOutcome& outcome) const;
  // Every job file present, by job index; throws InputError naming the file if one is damaged (unreadable JSON,
  // checksum mismatch, a name that is no job index) or is not this journal's (another grid, phase or job).
  std::map<std::size_t, JobOutcome> read() const;

 private:
  std::filesystem::path phase_directory_;
  std::size_t phase_;
  nlohmann::json grid_;
};

// The directory of every phase's journal and of grid.json.
std::filesystem::path journal_directory(const std::filesystem::path& directory);
// The CRC-32 of `text` (io/crc32.hpp, rbmix's one checksum) as 8 hexadecimal digits: detects damage, not tampering.
std::string journal_checksum(const std::string& text);
// The keys whose values differ between two grid identities, e.g. "seed" or "arguments"; empty if none.
std::string differing_keys(const nlohmann::json& ours, const nlohmann::json& theirs);
// journal/grid.json of `directory`, or null when there is none; throws InputError naming it if damaged: not an
// object of an identity (an object with "arguments", a list of strings, and "seed"), a shard ("I/N") and the jobs
// per phase (a list of counts).
nlohmann::json read_grid_record(const std::filesystem::path& directory);
void write_grid_record(const std::filesystem::path& directory, const nlohmann::json& record);

}  // namespace rbmix::experiments
