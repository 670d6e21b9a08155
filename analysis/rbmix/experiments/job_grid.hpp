#pragma once
// JobGrid: how the jobs of an experiment run when they form a grid, whatever the machines: every finished job is
// journaled in the output directory (job_journal.hpp); `resume` skips the jobs already journaled; a shard runs only
// its share (job_shard.hpp); under mpirun the jobs are spread over the ranks (mpi_job_backend.hpp); a job that
// throws is journaled with its message and the others still run. Results come back as the serialized text each job
// produced, in index order, whatever the backend: the text is the same bytes whether computed now, on another rank,
// or read from the journal.
//
// A front-end makes one grid for the experiment it runs and hands it to the experiment's JobRunner; every run_jobs on
// that runner uses it, phase after phase (the first run_jobs of the experiment is phase 0, and so on). A
// later phase may need every result of an earlier one (models trained, then measured), so a shard stops at the end
// of the first phase its journal does not hold whole; resumed from a merged journal (`experiment merge
// --journal-only`) it holds the earlier phases whole and goes on to its share of the next.
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "rbmix/experiments/job_journal.hpp"
#include "rbmix/experiments/job_shard.hpp"
#include "rbmix/report/progress.hpp"

namespace rbmix::experiments {

struct JobGridSettings {
  std::filesystem::path directory;  // the output directory: the journal goes to directory/journal
  // What makes two grids the same grid (experiment, its arguments, seed, version): a resume or merge must match it.
  nlohmann::json identity;
  JobShard shard;
  bool resume = false;
  // Jobs done / total, rate and ETA on stderr (report/progress.hpp): by default also in a log, every 10 s.
  ProgressMode progress = ProgressMode::always;
};

// Thrown where this process's part of the grid is done but the experiment cannot go on to its outputs: a shard
// whose share of a phase is journaled while the phase is not whole, or an MPI worker rank when rank 0 cannot go on
// (it reports why). Not an error: exit status 0.
class GridPartDone : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class JobGrid {
 public:
  explicit JobGrid(JobGridSettings settings);

  const JobGridSettings& settings() const { return settings_; }

  // Runs job(index) for every index in [0, count) of the next phase that is not already journaled (with resume) and
  // belongs to this shard, on the MPI ranks if a world is active, or else on `threads` threads of this process.
  // Returns the texts in index order, on every rank. Throws GridPartDone when this process's share is done but the
  // phase's journal is not whole (and on worker ranks when rank 0 cannot go on), and InputError naming the failed
  // jobs when jobs threw (after every other job ran and was journaled).
  std::vector<std::string> run(std::size_t count, int threads, const std::function<std::string(std::size_t)>& job);
  // The journal file of job `job` of the phase run last: where a result that cannot be read back came from.
  std::filesystem::path journal_file(std::size_t job) const;

 private:
  void check_or_write_identity(std::size_t phase, std::size_t count);

  JobGridSettings settings_;
  std::size_t next_phase_ = 0;
};

}  // namespace rbmix::experiments
