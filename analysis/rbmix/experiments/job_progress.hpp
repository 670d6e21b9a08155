#pragma once
// How far the grid job running on this thread has got, for the grid's progress line (job_grid.hpp). A grid's line
// counts finished jobs, and jobs of minutes or hours (003 Table 2's chains of 10^7–10^8 sweeps) would leave it
// silent until the first one ends: a job that reports its stage and the fraction of that stage done has the line
// show it while it runs ("job 3: flip chain 41 %").
//
// Both do nothing outside a grid job; report_job_progress is one relaxed atomic store, cheap enough for every sweep.
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

namespace rbmix::experiments {

// The job enters `stage` ("training", "gibbs chain"); until report_job_progress the line shows no fraction.
void report_job_stage(std::string stage);
// The fraction of the stage done, clamped to [0, 1]; NaN: not known (none shown).
void report_job_progress(double fraction);

// Enters the stage "training" and returns a Trainer's on_update hook (training/trainer.hpp) that reports the updates
// done of `updates`.
std::function<void(std::int64_t update)> training_progress(std::int64_t updates);

// One worker thread's running job, as the grid reads it from its progress thread.
class JobProgressSlot {
 public:
  // The calling thread reports into this slot until `finish`.
  void start(std::size_t job);
  void finish();
  // "job 3: flip chain 41 %", or empty while the slot holds no job.
  std::string describe() const;

 private:
  friend void report_job_stage(std::string stage);
  friend void report_job_progress(double fraction);
  std::atomic<std::int64_t> job_{-1};
  std::atomic<double> fraction_{0.0};
  mutable std::mutex stage_mutex_;
  std::string stage_;
};

}  // namespace rbmix::experiments
