#pragma once
// The training checkpoint file: everything that determines the rest of a run (docs/algorithms/training.md §3), so that
// a run resumed from it ends bit-identical to one that was never interrupted. Little-endian records (binary_archive):
//
//   "RBMIXCKP" · version 5 · trajectory fingerprint of the options · rows, visible, hidden units ·
//   updates done · batch position in the epoch · data order · data stream · parameters W, b, c · offsets μ, λ ·
//   momentum velocity · learning curve (version 2: without classification errors; 3: without the monitor's bands and
//   proxies; 4: without the exact values beside them) · negative phase (chains, streams, fast weights) · the
//   monitor's state (version 5; training_monitor.hpp: the trajectory monitor's particles) · "RBMIXCKP" · CRC-32
//
// The trailing CRC-32 (zlib) covers every byte before it, so a flipped bit anywhere or a cut file is refused before
// any field is read. The fields are then checked one by one against what this run expects and against the values
// a trainer can produce: shapes, an update counter within [0, planned updates] and in step with the batch
// position, a permutation as data order, finite parameters, offsets in [0, 1], chain states exactly 0 or 1, a
// learning curve of increasing updates. Every refusal is an InputError "checkpoint FILE: why".
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "rbmix/random/random_stream.hpp"
#include "rbmix/training/centered_parameters.hpp"
#include "rbmix/training/negative_phase.hpp"
#include "rbmix/training/learning_curve.hpp"

namespace rbmix {

// What the run that writes or loads a checkpoint is: a checkpoint of another run is refused.
struct CheckpointRun {
  std::string trajectory_fingerprint;  // trajectory_fingerprint(options)
  Eigen::Index rows = 0;               // training samples
  Eigen::Index n_visible = 0;
  Eigen::Index n_hidden = 0;
  Eigen::Index batches_per_epoch = 0;
  std::int64_t planned_updates = 0;  // options.updates
};

// The trainer's state apart from its negative phase.
struct TrainingState {
  std::int64_t updates_done = 0;
  Eigen::Index batch_in_epoch = 0;
  std::vector<std::uint64_t> permutation;  // data order of the current epoch
  RandomStream data_stream{0, 0};
  CenteredRbm parameters;
  Rbm velocity;  // momentum
  std::vector<EvaluationPoint> learning_curve;
  std::string monitor_state;  // TrainingMonitor::save_state(): empty for the monitors that carry nothing
};

std::string encode_checkpoint(const CheckpointRun& run, const TrainingState& state,
                              const NegativePhase& negative_phase);
// Checks everything described above; on success loads `negative_phase` and returns the rest. `source` names the
// file in messages. On failure `negative_phase` may be partly loaded.
TrainingState decode_checkpoint(std::string bytes, const std::string& source, const CheckpointRun& run,
                                NegativePhase& negative_phase);

void save_checkpoint(const std::filesystem::path& file, const CheckpointRun& run, const TrainingState& state,
                     const NegativePhase& negative_phase);
TrainingState load_checkpoint(const std::filesystem::path& file, const CheckpointRun& run,
                              NegativePhase& negative_phase);

}  // namespace rbmix
