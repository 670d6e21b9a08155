#pragma once
// JobGrid: how the jobs of an experiment run when they form a grid, whatever the machines: every finished job is
// journaled in the output directory (job_journal.hpp); `resume` skips the jobs already journaled; a shard runs only
// its share (job_shard.hpp); under mpirun the jobs are spread over the ranks (mpi_job_backend.hpp); a job that
// throws is journaled with its message and the others still run. Results come back as the serialized text each job
// produced, in index order, whatever the backend: the text is the same bytes whether computed now, on another rank,
// or read from the journal.
//
// A front-end makes one grid for the experiment it runs and hands it to the experiment's JobRunner; every run_jobs on
// that runner uses it and names its phase (JobPhase). A later phase may need every result of an earlier one (models
// trained, then measured), so a shard stops at the end of the first phase its journal does not hold whole; resumed
// from a merged journal (`experiment merge --journal-only`) it holds the earlier phases whole and goes on to its
// share of the next.
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rbmix/jobs/job_journal.hpp"
#include "rbmix/jobs/job_progress.hpp"
#include "rbmix/jobs/job_shard.hpp"
#include "rbmix/jobs/part_done.hpp"
#include "rbmix/report/progress.hpp"

namespace rbmix::experiments {

// An experiment's phases are numbered from 0 in the order it runs them, each a run_jobs over its jobs; the grid
// journals each phase apart and refuses one run before the phases below it.
struct JobPhase {
  std::size_t number = 0;
};

struct JobGridSettings {
  std::filesystem::path directory;  // the output directory: the journal goes to directory/journal
  // What makes two grids the same grid (experiment, its arguments, seed, version): a resume or merge must match it.
  nlohmann::json identity;
  JobShard shard;
  bool resume = false;
  // Jobs done / total, rate and ETA on stderr (report/progress.hpp): by default also in a log, every 10 s.
  ProgressMode progress = ProgressMode::always;
};

class JobGrid {
 public:
  explicit JobGrid(JobGridSettings settings);

  const JobGridSettings& settings() const { return settings_; }

  // Runs job(index, progress) for every index in [0, count) of `phase` that is not already journaled (with resume)
  // and belongs to this shard, on the MPI ranks if a world is active, or else on `threads` threads of this process;
  // each job reports how far it has got into `progress` (job_progress.hpp). Returns the texts in index order, on
  // every rank; PartDone (part_done.hpp) where this process's share is done but the phase's journal is not whole
  // (and on worker ranks when rank 0 cannot go on). Throws InputError naming the failed jobs when jobs threw (after
  // every other job ran and was journaled), and std::logic_error for a phase run before those below it.
  OrPartDone<std::vector<std::string>> run(JobPhase phase, std::size_t count, int threads,
                                           const std::function<std::string(std::size_t, const JobProgress&)>& job);
  // The journal file of job `job` of `phase`: where a result that cannot be read back came from.
  std::filesystem::path journal_file(JobPhase phase, std::size_t job) const;

 private:
  void check_or_write_identity(std::size_t phase, std::size_t count);

  JobGridSettings settings_;
};

}  // namespace rbmix::experiments
