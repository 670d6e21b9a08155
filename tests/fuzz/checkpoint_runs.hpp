#pragma once
// The training runs whose checkpoints the checkpoint fuzz target decodes: one per kind of negative-phase state
// (persistent chains; chains with fast weights; tempering replicas with swap streams). The seed corpus writer
// trains them, so the seeds match these options exactly.
#include <array>

#include "rbmix/data/datasets.hpp"
#include "rbmix/training/checkpoint.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix::fuzz {

inline constexpr Eigen::Index checkpoint_hidden_units = 3;
inline constexpr Eigen::Index checkpoint_batch_size = 4;
inline constexpr std::array<Algorithm, 3> checkpoint_algorithms = {Algorithm::pcd, Algorithm::fpcd, Algorithm::pt};

inline TrainingOptions checkpoint_options(Algorithm algorithm) {
  TrainingOptions options;
  apply_algorithm(options, algorithm, 1);
  options.rule = parse_unit_rule("flip");
  if (algorithm == Algorithm::fpcd) options.fast_learning_rate = 0.1;
  options.replicas = 2;
  options.batch_size = checkpoint_batch_size;
  options.updates = 8;
  options.evaluation_interval = 4;
  options.momentum = 0.5;
  options.seed = 11;
  return options;
}

// Bars and stripes of size 2: 6 rows of 4 pixels.
inline MatrixD checkpoint_training_data() { return to_real(bars_and_stripes(2)); }

inline CheckpointRun checkpoint_run(const TrainingOptions& options) {
  const MatrixD data = checkpoint_training_data();
  return {trajectory_fingerprint(options),     data.rows(),    data.cols(), checkpoint_hidden_units,
          data.rows() / checkpoint_batch_size, options.updates};
}

}  // namespace rbmix::fuzz
