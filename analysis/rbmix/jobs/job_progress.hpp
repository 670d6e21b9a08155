#pragma once
// How far a running grid job has got, for the grid's progress line (job_grid.hpp). A grid's line counts finished
// jobs, and jobs of minutes or hours (003 Table 2's chains of 10^7–10^8 sweeps) would leave it silent until the first
// one ends: a job that reports its stage and the fraction of that stage done has the line show it while it runs
// ("job 3: flip chain 41 %").
//
// A job reports through the JobProgress that run_jobs hands it (job_runner.hpp); outside a grid that handle reports
// nowhere. A report of the fraction is one relaxed atomic store, cheap enough for every sweep.
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

namespace rbmix::experiments {

class JobProgress;

// One worker thread's running job, as the grid reads it from its progress thread.
class JobProgressSlot {
 public:
  // The slot holds job `job` until `finish`, with no stage yet.
  void start(std::size_t job);
  void finish();
  // "job 3: flip chain 41 %", or empty while the slot holds no job.
  std::string describe() const;

 private:
  friend class JobProgress;
  std::atomic<std::int64_t> job_{-1};
  std::atomic<double> fraction_{0.0};
  mutable std::mutex stage_mutex_;
  std::string stage_;
};

// What a job reports into: its thread's slot in a grid, or nothing.
class JobProgress {
 public:
  // Reports nowhere: a job run outside a grid, or on another MPI rank.
  JobProgress() = default;
  explicit JobProgress(JobProgressSlot& slot) : slot_(&slot) {}

  // The job enters `stage` ("training", "gibbs chain"); until `fraction` the line shows no fraction.
  void stage(std::string stage) const;
  // The fraction of the stage done, clamped to [0, 1]; NaN: not known (none shown).
  void fraction(double fraction) const;
  // Enters the stage "training" and returns a Trainer's on_update hook (training/trainer.hpp) that reports the
  // updates done of `updates`.
  std::function<void(std::int64_t update)> training(std::int64_t updates) const;

 private:
  JobProgressSlot* slot_ = nullptr;
};

}  // namespace rbmix::experiments
