#pragma once
// Many independent training runs, in parallel over runs with OpenMP. Each run is fully determined by its options
// (its seed included), so the results do not depend on the thread count or on the order in which runs finish.
#include <cstdint>
#include <vector>

#include "rbmix/training/trainer.hpp"

namespace rbmix::experiments {

struct TrainingJob {
  TrainingOptions options;
  const MatrixD* data = nullptr;  // training data
  Eigen::Index n_hidden = 0;
  // The rows the learning curve's exact log-likelihood averages over; null: the training data. A fixed subset keeps
  // evaluation affordable on large training sets (exact LL costs 2^hidden × rows × visible).
  const MatrixD* evaluation_data = nullptr;
};

// The seed of trial `trial` of an experiment seeded with `seed`: the same for every setting and operator, so that
// trials can be paired (e.g. G against T from the same initial weights).
std::uint64_t trial_seed(std::uint64_t seed, int trial);

// Runs every job (threads ≤ 0: OpenMP's default) and returns their summaries in job order. An exception in any job
// is rethrown after all jobs have finished.
std::vector<TrainingSummary> run_training_jobs(const std::vector<TrainingJob>& jobs, int threads);

// The training log-likelihoods of a learning curve, NaN where none was computed.
std::vector<double> train_log_likelihoods(const TrainingSummary& summary);

}  // namespace rbmix::experiments
