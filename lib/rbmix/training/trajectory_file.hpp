#pragma once
// The training trajectory file: models saved along one training run, with their update numbers, for parallel
// tempering along the trajectory (docs/algorithms/tempering-along-trajectory.md §10) and log Z along training
// (docs/algorithms/log-partition-along-training.md §11). Little-endian records (binary_archive), appended while the run trains:
//
//   header record:  "RBMIXTRJ" · format version 1 · visible units · hidden units · configuration (JSON text: the
//                   schedule, the seed and the trajectory fingerprint of the training options) · the training rows'
//                   visible means (m values in [0, 1]: the exact rung 0 of a ladder, W = 0, b = logit(mean))
//   model record ×K: update number · W (n × m) · b (m) · c (n)
//
// Every record is framed as  byte count · payload · CRC-32 of the payload,  so a model appended after a crash cut
// the file short, or a flipped bit anywhere, is found and named ("record 7 (update 120) is damaged"). The reader
// refuses, by an InputError "trajectory FILE: why", a damaged or cut record, a record of another shape, update
// numbers that do not increase, non-finite parameters and visible means outside [0, 1]. Models are plain
// (uncentered) parameters in double, bit-identical to the trainer's `model()` at that update.
//
// Resuming a run truncates the file to the models saved at or before the checkpoint's update (those after it are
// saved again, bit-identical, by the resumed run); a file written under another schedule or other options is
// refused then.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/model/rbm.hpp"
#include "rbmix/sampling/model_path.hpp"

namespace rbmix {

inline constexpr std::uint64_t trajectory_format_version = 1;

struct TrajectoryModel {
  std::int64_t update = 0;
  Rbm parameters;
};

struct Trajectory {
  Eigen::Index n_visible = 0;
  Eigen::Index n_hidden = 0;
  std::string configuration;  // JSON text, as written
  VectorD data_visible_means;
  std::vector<TrajectoryModel> models;  // strictly increasing updates

  // The model without couplings that a ladder starts from: W = 0, b = logit(visible mean clipped to
  // [base_rate_clip, 1 − base_rate_clip]) (as the base-rate initialisation), c = the first saved model's c.
  Rbm independent_model() const;
};

// Which updates of a run of `planned_updates` a trajectory of `models` models keeps: always 0 and the last update;
// `spacing` linear spreads the rest evenly, geometric spreads them evenly in log(1 + update), which saves densely
// early in training where the model changes fastest. Distinct, increasing; fewer than `models` when the run is short.
enum class TrajectorySpacing { linear, geometric };
std::string to_string(TrajectorySpacing spacing);
TrajectorySpacing parse_trajectory_spacing(const std::string& text);  // "linear" | "geometric"; InputError otherwise
std::vector<std::int64_t> trajectory_schedule(std::int64_t planned_updates, std::int64_t models,
                                              TrajectorySpacing spacing);

// The path along a training trajectory (model_path.hpp): the independent model, then every saved model. Throws
// InputError naming `source` when the trajectory holds fewer than 2 models (a ladder needs a trajectory, not a model).
ModelPath trajectory_path(const Trajectory& trajectory, const std::string& source);

// Reads and checks the whole file.
Trajectory read_trajectory(const std::filesystem::path& file);

// Appends models to a trajectory file as a run saves them. `open` creates the file with its header, or, when
// `resume_at_update` is set, checks that the existing header is this run's (same configuration and shapes) and
// truncates the file after the last model at or before that update. Every append is flushed to disk before it
// returns, so a model that was announced is a model on disk.
class TrajectoryWriter {
 public:
  TrajectoryWriter() = default;
  static TrajectoryWriter open(const std::filesystem::path& file, Eigen::Index n_visible, Eigen::Index n_hidden,
                               const std::string& configuration, const VectorD& data_visible_means,
                               std::optional<std::int64_t> resume_at_update = std::nullopt);
  void append(std::int64_t update, const Rbm& parameters);
  std::int64_t last_update() const { return last_update_; }  // −1 before the first model
  const std::filesystem::path& file() const { return file_; }
  bool is_open() const { return !file_.empty(); }

 private:
  std::filesystem::path file_;
  Eigen::Index n_visible_ = 0;
  Eigen::Index n_hidden_ = 0;
  std::int64_t last_update_ = -1;
};

}  // namespace rbmix
