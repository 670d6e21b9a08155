#pragma once
// JobRunner: runs the independent jobs 0..N−1 of an experiment (its trials, RBMs, runs) and returns their results
// in index order. The contract that makes results reproducible is the job's, not the runner's: a job depends only
// on its index and on read-only shared inputs, and draws its randomness from (experiment seed, index) alone
// (trial_seed), so results do not depend on the thread count or on the order in which jobs finish. Every backend
// keeps the same contract: every index runs exactly once and results are collected in index order. The backends:
// the OpenMP threads of one process, and, when the front-end hands the runner a JobGrid (job_grid.hpp), the grid's:
// journaled and resumable, a shard of the indices, or MPI ranks. A grid moves results as text, so run_jobs takes
// only results that say how to write and read themselves (GridSerializable), checked when it is compiled.
#include <concepts>
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "rbmix/core/error.hpp"
#include "rbmix/jobs/job_grid.hpp"
#include "rbmix/jobs/job_progress.hpp"
#include "rbmix/jobs/part_done.hpp"

namespace rbmix::experiments {

class JobRunner {
 public:
  // threads ≤ 0: OpenMP's default (all cores). `grid`: where run_jobs journals, shards and spreads the jobs (the
  // front-end's, living as long as the runner); null: threads of this process only, nothing journaled.
  explicit JobRunner(int threads = 0, JobGrid* grid = nullptr) : threads_(threads), grid_(grid) {}

  // Calls job(index) once for every index in [0, count), in parallel threads of this process, whatever the grid. Each
  // job's own OpenMP regions run serially (the jobs are the parallelism). If jobs throw, every job still runs and the
  // exception of the lowest failing index is rethrown, so the reported error does not depend on the thread count
  // either.
  void run(std::size_t count, const std::function<void(std::size_t index)>& job) const;

  int threads() const { return threads_; }
  JobGrid* grid() const { return grid_; }

 private:
  int threads_;
  JobGrid* grid_;
};

// A job result a grid can journal and send between ranks: to_grid_json(result) and from_grid_json(json, result),
// found by argument-dependent lookup, must restore every bit (doubles through exact_number).
template <typename Result>
concept GridSerializable = requires(const Result& result, Result& restored, const nlohmann::json& json) {
  { to_grid_json(result) } -> std::convertible_to<nlohmann::json>;
  from_grid_json(json, restored);
};

// Calls job(index, progress) where the job takes the progress it reports into (job_progress.hpp), else job(index).
template <typename Job>
decltype(auto) call_job(Job& job, std::size_t index, const JobProgress& progress) {
  if constexpr (std::is_invocable_v<Job&, std::size_t, const JobProgress&>) {
    return job(index, progress);
  } else {
    return job(index);
  }
}

template <typename Job>
using JobResult =
    std::remove_cvref_t<decltype(call_job(std::declval<Job&>(), std::size_t{}, std::declval<const JobProgress&>()))>;

// job(index) or job(index, progress) for every index in [0, count) on `runner`, as `phase` of the experiment; the
// results in index order. Through the runner's grid, if any: journaled, resumed, sharded or on MPI ranks, with the
// same results, each job's progress on the grid's line; or PartDone where this process's part of the grid is done
// while the phase is not whole (part_done.hpp). Without a grid the phase is not used, progress goes nowhere and the
// results are always whole.
// clang-format off (clang-format 14 runs the requires-clause into the declaration)
template <typename Job>
requires GridSerializable<JobResult<Job>> OrPartDone<std::vector<JobResult<Job>>> run_jobs(const JobRunner& runner,
                                                                                           JobPhase phase,
                                                                                           std::size_t count,
                                                                                           Job&& job) {
  // clang-format on
  using Result = JobResult<Job>;
  std::vector<Result> results(count);
  if (runner.grid() == nullptr) {
    runner.run(count, [&](std::size_t index) { results[index] = call_job(job, index, JobProgress()); });
    return results;
  }
  const OrPartDone<std::vector<std::string>> texts =
      runner.grid()->run(phase, count, runner.threads(), [&job](std::size_t index, const JobProgress& progress) {
        return nlohmann::json(to_grid_json(call_job(job, index, progress))).dump();
      });
  if (!texts) return texts.part_done();
  for (std::size_t index = 0; index < count; ++index) try {
      from_grid_json(nlohmann::json::parse(texts.value()[index]), results[index]);
    } catch (const std::exception& error) {
      // The entry's grid identity holds rbmix's version, so a result that its reader refuses is damaged, not old.
      throw InputError("journal file '" + runner.grid()->journal_file(phase, index).string() +
                       "' is damaged: the result of job " + std::to_string(index) + ": " + error.what() +
                       "; delete it to run that job again");
    }
  return results;
}

}  // namespace rbmix::experiments
