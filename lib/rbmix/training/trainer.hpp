#pragma once
// Trainer: mini-batch (or full-batch) training of a binary RBM with any negative phase (docs/algorithms/training.md
// §3).
//
// One update = one mini-batch:
//   positive statistics at θ^(t) from the batch, with E[h|v];
//   the negative phase starts on the batch;
//   d times (S-DCP inner steps; d = 1 otherwise): negative statistics at the current θ̃, [centered: move offsets
//   and re-parameterise], gradient = positive − negative [centered form], optimizer step on θ̃, fast weights learn;
//   θ^(t+1) = θ̃.
// So CD-K' and S-DCP with d = 1 are the same code path and give the same numbers, and CG is CS-DCP with d = 1.
// Data are shuffled at the start of every epoch from RandomStream(seed, 0, StreamDomain::data); an epoch has
// ⌊N/B⌋ batches (the rows left over go into later epochs through the shuffle).
// Initialisation (parameter_initialisation.hpp, `--init`): W ~ N(0, scale²) from RandomStream(seed, 0,
// StreamDomain::initialisation); then b = logit(data mean clipped to [base_rate_clip, 1 − base_rate_clip]) and c = 0
// (base-rate), b = c = 0 (zero), or b and c drawn from N(0, S²) too (normal:S). A centered run starts at the same
// plain model, with μ = data mean and λ = 0.5 (002 §4).
//
// run() evaluates at update 0, every evaluation_interval updates and at the end with the monitor of
// options.monitor (training_monitor.hpp: exact log-likelihood where the smaller layer has at most
// max_enumerated_units units, AIS otherwise, with pseudo-likelihood, reconstruction error and free-energy gap as
// proxies; the classification errors of a classification RBM, label_classes > 0, where on grey-level training rows
// the inputs are the grey levels themselves; or log Z tracked along the run, whose particles follow every update);
// an estimator hook, when given, replaces the monitor. The monitor draws from its own streams, so it does not change
// the parameters.
// With resample_binarisation the training rows are grey levels and each batch row is drawn afresh (000 §4.1). It stops
// when the planned updates are done, when the interrupt hook says so, or when the parameters diverge (NaN/Inf or |θ| >
// divergence_bound); a diverged run restores the last good parameters (those of the last evaluation or checkpoint) and
// writes no checkpoint, so the last checkpoint on disk stays intact. A checkpoint holds everything that determines the
// rest of the run, so a run resumed from it ends bit-identical to one that was never interrupted.
// Each update runs on the thread team a ThreadCountTuner picks by timing the updates (the full team, or one thread
// where other work on the machine makes the team slower; thread_count_tuner.hpp); the numbers never depend on it.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rbmix/core/thread_count_tuner.hpp"
#include "rbmix/model/rbm.hpp"
#include "rbmix/training/centered_parameters.hpp"
#include "rbmix/training/learning_curve.hpp"
#include "rbmix/training/negative_phase.hpp"
#include "rbmix/training/optimizer.hpp"
#include "rbmix/training/training_options.hpp"
#include "rbmix/training/trajectory_file.hpp"
#include "rbmix/training/update_paths.hpp"

namespace rbmix {

struct CheckpointRun;  // checkpoint.hpp

// The base rate b = logit(mean) keeps mean 0 or 1 finite by clipping: logit(1e-3) ≈ −6.9.
inline constexpr double base_rate_clip = 1e-3;

enum class Termination { completed, diverged, interrupted };
std::string to_string(Termination termination);

struct TrainingSummary {
  Termination termination = Termination::completed;
  std::string message;
  std::int64_t updates_done = 0;
  std::vector<EvaluationPoint> learning_curve;
  std::optional<EvaluationPoint> best;   // best_evaluation.hpp: the highest monitored_score, the earliest of equals
  std::optional<EvaluationPoint> final;  // last evaluation
  double seconds = 0.0;                  // wall time of this run() call
};

// Average log-likelihood of `data` under `rbm`; used when the model is too large to enumerate.
using LikelihoodEstimator = std::function<double(const Rbm& rbm, const MatrixD& data)>;

struct TrainingHooks {
  LikelihoodEstimator estimate_log_likelihood;                // optional
  std::function<void(const EvaluationPoint&)> on_evaluation;  // optional
  std::function<void(std::int64_t update)> on_update;         // optional, after every update
  std::function<bool()> interrupt_requested;                  // optional, polled after every update
};

class Trainer {
 public:
  // `train` and `test` hold one 0/1 sample per row (test may be empty). Throws InputError for invalid options or
  // data (non-binary values, different widths, fewer rows than the batch size). `paths`: the implementations its
  // updates take (update_paths.hpp), all rbmix's own unless a test or benchmark compares them.
  Trainer(TrainingOptions options, MatrixD train, MatrixD test, Eigen::Index n_hidden, UpdatePaths paths = {});

  // Replaces the whole training state by the checkpoint's (checkpoint.hpp); throws InputError naming the file if
  // it is missing, damaged, or was written for other options or data shapes.
  void load_checkpoint(const std::filesystem::path& path);
  void save_checkpoint(const std::filesystem::path& path) const;

  // Starts from `model` instead of the initialisation (a warm start: training continued on new rows, as scikit-learn's
  // partial_fit does); only before the first update, with the run's shapes. Throws InputError otherwise or for a model
  // with non-finite parameters. The initialisation's random draws are made either way, so the streams that follow are
  // those of a cold start with the same seed.
  void start_from(const Rbm& model);

  TrainingSummary run(const TrainingHooks& hooks = {});
  // One update (no divergence check, no evaluation; the trajectory monitor follows it); for benchmarks and tests.
  void step();

  // The model in plain form.
  Rbm model() const;
  const CenteredRbm& parameters() const { return parameters_; }
  std::int64_t updates_done() const { return updates_done_; }
  const std::vector<EvaluationPoint>& learning_curve() const { return learning_curve_; }
  const TrainingOptions& options() const { return options_; }
  const TrainingMonitor& monitor() const { return monitor_; }
  double epochs_done() const;
  // The tuner of the updates' thread team, for benchmarks.
  const ThreadCountTuner& thread_tuner() const { return thread_tuner_; }

 private:
  // The workspaces of an update in Scalar: the batch and θ in Scalar (unused in double, where the originals serve),
  // the positive phase. In float, `model` is written by the optimizer's step when the parameters are plain.
  template <typename Scalar>
  struct UpdateWorkspace {
    Matrix<Scalar> batch;
    BasicRbm<Scalar> model;
    Matrix<Scalar> hidden_inputs;
    Matrix<Scalar> hidden_probabilities;
    BasicStatistics<Scalar> positive;
  };
  template <typename Scalar>
  void update(BasicNegativePhase<Scalar>& phase, UpdateWorkspace<Scalar>& workspace);
  NegativePhase& negative_phase() const;

  const MatrixD& next_batch();
  std::int64_t epoch_of_next_batch() const { return updates_done_ / batches_per_epoch_; }
  const Rbm& model_to_sample();
  EvaluationPoint evaluate(const TrainingHooks& hooks) const;
  std::optional<std::string> divergence() const;
  CheckpointRun checkpoint_run() const;
  // The trajectory file (options.trajectory_path): opened by run(), anew or, after load_checkpoint, truncated to the
  // checkpoint's models; a model is appended at every scheduled update.
  void open_trajectory();
  void keep_trajectory_model();

  TrainingOptions options_;
  UpdatePaths paths_;
  MatrixD train_;
  MatrixD test_;
  Eigen::Index batch_size_;
  Eigen::Index batches_per_epoch_;

  CenteredRbm parameters_;
  Optimizer optimizer_;
  // The negative phase in the update's precision: exactly one of the two is set.
  std::unique_ptr<BasicNegativePhase<double>> negative_phase_in_double_;
  std::unique_ptr<BasicNegativePhase<float>> negative_phase_in_float_;
  RandomStream data_stream_;
  TrainingMonitor monitor_;
  std::vector<std::uint64_t> permutation_;
  Eigen::Index batch_in_epoch_ = 0;
  std::int64_t updates_done_ = 0;
  std::vector<EvaluationPoint> learning_curve_;
  CenteredRbm last_good_;  // parameters at the last evaluation or checkpoint
  std::int64_t last_good_update_ = 0;
  std::optional<std::int64_t> checkpoint_update_;  // of the last checkpoint this trainer wrote or loaded
  double largest_parameter_ = 0.0;                 // max |θ| after the last step, from the optimizer's pass
  ThreadCountTuner thread_tuner_;                  // the team of each update; not part of the state
  TrajectoryWriter trajectory_;
  std::vector<std::int64_t> trajectory_updates_;  // the updates whose models the trajectory keeps
  bool sampling_copy_current_ = false;             // float_workspace_.model is θ in float, written by the optimizer

  // Workspaces.
  MatrixD batch_;
  UpdateWorkspace<double> double_workspace_;
  UpdateWorkspace<float> float_workspace_;
  Rbm plain_;
  Rbm gradient_;
};

}  // namespace rbmix
