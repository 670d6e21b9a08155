#pragma once
// log Z of every model of a trajectory file, offline (docs/algorithms/log-partition-along-training.md §11.7): rung 0
// is the trajectory's independent model, whose log Z is exact; each link between consecutive rungs gets Δ log Z by
// Bennett's acceptance ratio (and one-sided free-energy perturbation beside it) from samples of both of its models
// (log_partition_difference.hpp), and the links are summed. Each link draws its own samples of its two models, so
// the links are independent and the accumulated variance is the sum of theirs. A sample is the visible state of one
// Gibbs chain after `sweeps` sweeps from a training row (row b mod rows for chain b): `samples` chains, one sample
// each, so the samples are independent when the chains have mixed; a chain that has not makes the standard error
// too small, which the distinct-rows check can catch.
//
// The same log Z by sequential Monte Carlo along the saved models (anneal_along_saved_models): the trajectory
// monitor's estimator (trajectory_log_partition.hpp) run after training, from the first saved model through every
// later one, each link annealed in the monitor's sized steps (§11.9), with any number of particles. It measures what
// the monitor would have read at those models, at settings the run did not use.
#include <cstdint>
#include <functional>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/estimation/log_partition_difference.hpp"
#include "rbmix/training/trajectory_file.hpp"
#include "rbmix/training/trajectory_log_partition.hpp"

namespace rbmix {

struct SavedModelBridgeOptions {
  Eigen::Index samples = 1000;  // chains per model and link, one sample each
  Eigen::Index sweeps = 100;    // Gibbs sweeps from a training row before the chain's sample (burn-in)
  std::uint64_t seed = 1;
  // Optional: called after each link with the links done (of the trajectory's models; a progress line).
  std::function<void(std::size_t links_done)> on_link;
};

struct SavedModelLogPartition {
  std::int64_t update = 0;
  LogPartitionDifference bennett;                 // Δ log Z from the previous rung (the independent model for the first)
  LogPartitionDifference free_energy_perturbation;  // the same Δ from the previous rung's samples only
  LogPartitionDifference log_partition;           // rung 0's exact log Z plus Bennett's Δ of every link so far
  double train_log_likelihood = 0.0;              // mean over the training rows of −F(v) − log Z
  // log Σ_{distinct training rows} e^{−F(v)}: log Z is at least this; an estimate below it gives the distinct rows a
  // total probability above 1.
  double distinct_rows_bound = 0.0;
  bool exceeds_distinct_rows() const { return log_partition.value < distinct_rows_bound; }
};

// Throws InputError for options below 2 samples or 1 sweep, or training rows of another width than the trajectory
// (or not 0/1, or fewer than 2), or a trajectory without models.
std::vector<SavedModelLogPartition> saved_model_log_partitions(const Trajectory& trajectory,
                                                               const MatrixD& training_rows,
                                                               const SavedModelBridgeOptions& options);

struct SavedModelAnnealingOptions {
  TrajectoryLogPartitionOptions particles;  // particles, groups, resampling threshold, sweeps per step, precision, seed
  double step_size = 0.1;                   // the spread of one step's free-energy change over the reference rows
  Eigen::Index reference_rows = 250;        // training rows, evenly spaced, that size the steps (the monitor's 250)
  // Optional: called after each saved model with the models done (a progress line).
  std::function<void(std::size_t models_done)> on_model;
};

struct AnnealedSavedModel {
  std::int64_t update = 0;
  TrackedLogPartition log_partition;  // the estimate at this model, with its band
  std::int64_t steps = 0;             // annealing steps from the previous saved model (the bridge's for the first)
  double train_log_likelihood = 0.0;  // mean over the training rows of −F(v) − log Ẑ
  double distinct_rows_bound = 0.0;   // as SavedModelLogPartition's
  bool exceeds_distinct_rows() const { return log_partition.log_partition < distinct_rows_bound; }
};

// Throws InputError for invalid particle options, a step size or reference rows that are not positive, training
// rows of another width than the trajectory (or not 0/1, or fewer than 2), or a trajectory without models.
std::vector<AnnealedSavedModel> anneal_along_saved_models(const Trajectory& trajectory, const MatrixD& training_rows,
                                                          const SavedModelAnnealingOptions& options);

}  // namespace rbmix
