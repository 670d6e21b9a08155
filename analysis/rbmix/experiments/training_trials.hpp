#pragma once
// Many independent training runs, spread over threads by a JobRunner. Each run is fully determined by its options
// (its seed included), so the results do not depend on the thread count or on the order in which runs finish.
#include <nlohmann/json.hpp>
#include <vector>

#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix {

// A training run's summary as the job grid journals it (job_runner.hpp: GridSerializable); in namespace rbmix,
// TrainingSummary's, for argument-dependent lookup.
nlohmann::json to_grid_json(const TrainingSummary& summary);
void from_grid_json(const nlohmann::json& json, TrainingSummary& summary);

}  // namespace rbmix

namespace rbmix::experiments {

struct TrainingJob {
  TrainingOptions options;
  const MatrixD* data = nullptr;  // training data
  Eigen::Index n_hidden = 0;
  // The rows the learning curve's exact log-likelihood averages over; null: the training data. A fixed subset keeps
  // evaluation affordable on large training sets (exact LL costs 2^hidden × rows × visible).
  const MatrixD* evaluation_data = nullptr;
};

// Runs every job on `runner` as `phase` of its experiment and returns their summaries in job order (or PartDone:
// part_done.hpp).
OrPartDone<std::vector<TrainingSummary>> run_training_jobs(const std::vector<TrainingJob>& jobs,
                                                           const JobRunner& runner, JobPhase phase);

// The training log-likelihoods of a learning curve, NaN where none was computed.
std::vector<double> train_log_likelihoods(const TrainingSummary& summary);

}  // namespace rbmix::experiments
