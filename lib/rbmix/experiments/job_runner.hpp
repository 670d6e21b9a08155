#pragma once
// JobRunner: runs the independent jobs 0..N−1 of an experiment (its trials, RBMs, runs) and returns their results
// in index order. The contract that makes results reproducible is the job's, not the runner's: a job depends only
// on its index and on read-only shared inputs, and draws its randomness from (experiment seed, index) alone
// (trial_seed), so results do not depend on the thread count or on the order in which jobs finish. This runner
// spreads the jobs over the OpenMP threads of one process; another backend (MPI ranks, shards of indices) keeps the
// same contract: every index runs exactly once and results are collected in index order.
#include <cstddef>
#include <functional>
#include <type_traits>
#include <vector>

namespace rbmix::experiments {

class JobRunner {
 public:
  // threads ≤ 0: OpenMP's default (all cores).
  explicit JobRunner(int threads = 0) : threads_(threads) {}

  // Calls job(index) once for every index in [0, count), in parallel. Each job's own OpenMP regions run serially
  // (the jobs are the parallelism). If jobs throw, every job still runs and the exception of the lowest failing
  // index is rethrown, so the reported error does not depend on the thread count either.
  void run(std::size_t count, const std::function<void(std::size_t index)>& job) const;

 private:
  int threads_;
};

// job(index) for every index in [0, count) on `runner`; the results in index order.
template <typename Job>
std::vector<std::invoke_result_t<Job&, std::size_t>> run_jobs(const JobRunner& runner, std::size_t count, Job&& job) {
  std::vector<std::invoke_result_t<Job&, std::size_t>> results(count);
  runner.run(count, [&](std::size_t index) { results[index] = job(index); });
  return results;
}

}  // namespace rbmix::experiments
