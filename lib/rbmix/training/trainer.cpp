#include "rbmix/training/trainer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <type_traits>

#include "rbmix/core/entry_checks.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/model/classification_rbm.hpp"
#include "rbmix/model/exact.hpp"
#include "rbmix/model/statistics.hpp"
#include "rbmix/training/best_evaluation.hpp"
#include "rbmix/training/checkpoint.hpp"

namespace rbmix {
namespace {

constexpr double initial_hidden_offset = 0.5;  // λ starts at 0.5 (002 §4)

void require_binary(const MatrixD& data, const std::string& what) {
  const bool binary = all_binary(data);
  require(binary, what + ": every value must be 0 or 1");
}

void require_unit_interval(const MatrixD& data, const std::string& what) {
  require(all_in_unit_interval(data), what + ": every grey level must lie in [0, 1]");
}

Rbm initial_model(const TrainingOptions& options, const MatrixD& train, Eigen::Index n_hidden) {
  const Eigen::Index n_visible = train.cols();
  Rbm rbm(n_visible, n_hidden);
  RandomStream stream(options.seed, 0, StreamDomain::initialisation);
  for (Eigen::Index index = 0; index < rbm.weights.size(); ++index)
    rbm.weights.data()[index] = options.initial_weight_scale * stream.normal();
  if (options.initial_bias_scale > 0.0) {
    // 003 §4.2: biases from the same normal distribution as the weights, drawn after them.
    for (Eigen::Index unit = 0; unit < n_visible; ++unit)
      rbm.visible_bias[unit] = options.initial_bias_scale * stream.normal();
    for (Eigen::Index unit = 0; unit < n_hidden; ++unit)
      rbm.hidden_bias[unit] = options.initial_bias_scale * stream.normal();
  } else if (options.base_rate_visible_bias) {
    const VectorD mean = train.colwise().mean().transpose();
    for (Eigen::Index unit = 0; unit < n_visible; ++unit) {
      const double p = std::clamp(mean[unit], base_rate_clip, 1.0 - base_rate_clip);
      rbm.visible_bias[unit] = std::log(p / (1.0 - p));
    }
  }
  return rbm;
}

}  // namespace

std::string to_string(Termination termination) {
  switch (termination) {
    case Termination::completed:
      return "completed";
    case Termination::diverged:
      return "diverged";
    case Termination::interrupted:
      return "interrupted";
  }
  return "unknown";
}

Trainer::Trainer(TrainingOptions options, MatrixD train, MatrixD test, Eigen::Index n_hidden, UpdatePaths paths)
    : options_(std::move(options)),
      paths_(paths),
      train_(std::move(train)),
      test_(std::move(test)),
      optimizer_(options_.momentum, options_.weight_decay, train_.cols(), n_hidden),
      data_stream_(options_.seed, 0, StreamDomain::data),
      monitor_(options_.monitor,
               resolve_monitor(options_.monitor, train_.cols(), n_hidden, options_.label_classes,
                               options_.max_enumerated_units),
               options_.seed, train_, options_.resample_binarisation, options_.label_classes, options_.rule,
               options_.sample_in_float, options_.max_enumerated_units) {
  options_.validate();
  require(train_.rows() > 0 && train_.cols() > 0, "training data: no samples");
  require(n_hidden > 0, "the number of hidden units must be positive");
  if (options_.resample_binarisation) {
    require_unit_interval(train_, "training data");
  } else {
    require_binary(train_, "training data");
  }
  if (test_.size() > 0) {
    require(test_.cols() == train_.cols(), "test data: " + std::to_string(test_.cols()) +
                                               " columns, but the training data have " + std::to_string(train_.cols()));
    require_binary(test_, "test data");
  }
  if (options_.label_classes > 0) {
    // The label block must be one-hot in every row: the softmax group has no other states.
    one_hot_labels(train_, options_.label_classes, "training data");
    if (test_.size() > 0) one_hot_labels(test_, options_.label_classes, "test data");
  }
  batch_size_ = options_.batch_size == 0 ? train_.rows() : options_.batch_size;
  require(batch_size_ <= train_.rows(), "batch size " + std::to_string(batch_size_) + " exceeds the " +
                                            std::to_string(train_.rows()) + " training samples");
  batches_per_epoch_ = train_.rows() / batch_size_;

  const Rbm initial = initial_model(options_, train_, n_hidden);
  if (options_.centered) {
    parameters_ =
        center(initial, train_.colwise().mean().transpose(), VectorD::Constant(n_hidden, initial_hidden_offset));
  } else {
    parameters_ = CenteredRbm{initial, VectorD::Zero(train_.cols()), VectorD::Zero(n_hidden)};
  }
  last_good_ = parameters_;
  monitor_.start_following(model());
  if (options_.sample_in_float) {
    negative_phase_in_float_ = make_negative_phase<float>(options_, train_.cols(), n_hidden, batch_size_, paths_);
  } else {
    negative_phase_in_double_ = make_negative_phase<double>(options_, train_.cols(), n_hidden, batch_size_, paths_);
  }
  permutation_.resize(static_cast<std::size_t>(train_.rows()));
  std::iota(permutation_.begin(), permutation_.end(), std::uint64_t{0});
}

void Trainer::start_from(const Rbm& model) {
  require(updates_done_ == 0, "a warm start must come before the first update");
  model.validate("initial model");
  require(model.n_visible() == train_.cols() && model.n_hidden() == parameters_.parameters.n_hidden(), [&] {
    return "initial model: " + std::to_string(model.n_visible()) + " visible and " + std::to_string(model.n_hidden()) +
           " hidden units, but the run has " + std::to_string(train_.cols()) + " and " +
           std::to_string(parameters_.parameters.n_hidden());
  });
  parameters_ = options_.centered ? center(model, parameters_.visible_offset, parameters_.hidden_offset)
                                  : CenteredRbm{model, parameters_.visible_offset, parameters_.hidden_offset};
  last_good_ = parameters_;
  monitor_.start_following(this->model());
}

double Trainer::epochs_done() const {
  return static_cast<double>(updates_done_) / static_cast<double>(batches_per_epoch_);
}

Rbm Trainer::model() const {
  if (!options_.centered) return parameters_.parameters;
  Rbm plain;
  to_plain(parameters_, plain);
  return plain;
}

const MatrixD& Trainer::next_batch() {
  if (batch_in_epoch_ == 0) {
    // Fisher–Yates shuffle for the new epoch.
    for (std::size_t index = permutation_.size() - 1; index > 0; --index)
      std::swap(permutation_[index], permutation_[data_stream_.below(index + 1)]);
  }
  batch_.resize(batch_size_, train_.cols());
  const Eigen::Index first = batch_in_epoch_ * batch_size_;
  if (options_.resample_binarisation) {
    // The stream of (epoch, row) is the one stochastic_binarize gives row `row` in epoch `epoch`, so every use of
    // a row draws afresh and the draws do not depend on the batch composition or the thread count.
    const auto epoch = static_cast<std::uint64_t>(epoch_of_next_batch());
    for (Eigen::Index row = 0; row < batch_size_; ++row) {
      const std::uint64_t source = permutation_[static_cast<std::size_t>(first + row)];
      RandomStream stream(options_.seed, (epoch << 32) | source, StreamDomain::binarisation);
      for (Eigen::Index unit = 0; unit < train_.cols(); ++unit)
        batch_(row, unit) = stream.uniform() < train_(static_cast<Eigen::Index>(source), unit) ? 1.0 : 0.0;
    }
  } else {
    for (Eigen::Index row = 0; row < batch_size_; ++row)
      batch_.row(row) = train_.row(static_cast<Eigen::Index>(permutation_[static_cast<std::size_t>(first + row)]));
  }
  batch_in_epoch_ = (batch_in_epoch_ + 1) % batches_per_epoch_;
  return batch_;
}

const Rbm& Trainer::model_to_sample() {
  if (!options_.centered) return parameters_.parameters;
  to_plain(parameters_, plain_);
  return plain_;
}

NegativePhase& Trainer::negative_phase() const {
  if (negative_phase_in_float_) return *negative_phase_in_float_;
  return *negative_phase_in_double_;
}

namespace {

// `source` itself in double; in float, its copy written into `workspace` (no allocation once sized).
template <typename Scalar>
const Matrix<Scalar>& in_precision(const MatrixD& source, Matrix<Scalar>& workspace) {
  if constexpr (std::is_same_v<Scalar, double>) {
    return source;
  } else {
    workspace = source.cast<Scalar>();
    return workspace;
  }
}

template <typename Scalar>
const BasicRbm<Scalar>& in_precision(const Rbm& source, BasicRbm<Scalar>& workspace) {
  if constexpr (std::is_same_v<Scalar, double>) {
    return source;
  } else {
    in_precision(source.weights, workspace.weights);
    workspace.visible_bias = source.visible_bias.cast<Scalar>();
    workspace.hidden_bias = source.hidden_bias.cast<Scalar>();
    return workspace;
  }
}

}  // namespace

void Trainer::step() {
  thread_tuner_.run([&] {
    if (negative_phase_in_float_) {
      update(*negative_phase_in_float_, float_workspace_);
    } else {
      update(*negative_phase_in_double_, double_workspace_);
    }
    // The trajectory monitor's particles follow the update on the same team (training_monitor.hpp); a diverged
    // step is left to run().
    if (monitor_.follows_updates() && !divergence()) monitor_.follow_update(model_to_sample());
  });
  ++updates_done_;
}

template <typename Scalar>
void Trainer::update(BasicNegativePhase<Scalar>& phase, UpdateWorkspace<Scalar>& workspace) {
  const Matrix<Scalar>& batch = in_precision(next_batch(), workspace.batch);
  const double learning_rate = scheduled_learning_rate(options_, updates_done_);

  // In float, the optimizer writes the float copy of plain parameters as it steps; centered parameters are
  // converted to the plain model first, and a copy is made wherever the optimizer did not write one.
  const bool optimizer_writes_copy = std::is_same_v<Scalar, float> && !options_.centered;
  const auto model_in_precision = [&]() -> const BasicRbm<Scalar>& {
    if (optimizer_writes_copy && sampling_copy_current_) return workspace.model;
    return in_precision(model_to_sample(), workspace.model);
  };
  const BasicRbm<Scalar>& current = model_in_precision();
  // The batch is 0/1 (the constructor requires binary data or binarisation draws it), so the products with it may
  // take the binary path.
  current.binary_layer_inputs(Layer::hidden, batch, workspace.hidden_inputs, Scalar(1), paths_.products);
  logistic(workspace.hidden_inputs, workspace.hidden_probabilities);
  const BasicStatistics<Scalar>& positive = workspace.positive;
  binary_batch_statistics(batch, workspace.hidden_probabilities, workspace.positive, paths_.products);
  phase.start_batch(batch, workspace.hidden_probabilities);

  const auto parameter_step = [&](bool parameters_moved) {
    const BasicRbm<Scalar>& model = parameters_moved ? model_in_precision() : current;
    const BasicStatistics<Scalar>& negative = phase.statistics(model);
    BasicRbm<Scalar>* copy = optimizer_writes_copy ? &workspace.model : nullptr;
    if (options_.centered || phase.learns_from_gradient()) {
      // The gradient written out: the centered form changes it, and FPCD's fast weights learn from it.
      if (options_.centered) {
        // 002 Alg. 4 moves the offsets once per inner step, towards the batch means ⟨v⟩_data and ⟨E[h|v]⟩_data.
        // Alg. 4 keeps the positive part of ∇W at the offsets of the first inner step; rbmix centers both parts at
        // the current offsets (the exact centered gradient of the same surrogate); with ν = 0.01 they differ by
        // O(ν).
        move_offsets(parameters_, positive.visible.template cast<double>(), positive.hidden.template cast<double>(),
                     options_.offset_rate);
        centered_gradient(positive, negative, parameters_, gradient_);
      } else {
        statistics_difference(positive, negative, gradient_);
      }
      largest_parameter_ = optimizer_.step(parameters_.parameters, StoredGradient{gradient_}, learning_rate, copy);
      phase.after_step(gradient_);
    } else {
      // The plain gradient, read from the statistics as the optimizer steps.
      largest_parameter_ =
          optimizer_.step(parameters_.parameters, StatisticsGradient<Scalar>{positive, negative}, learning_rate, copy);
    }
    sampling_copy_current_ = optimizer_writes_copy;
  };
  if (options_.difference_of_convex) {
    // S-DCP / CS-DCP (002 Alg. 3, 4): d steps, each with a fresh negative phase, share the batch's positive phase.
    for (int inner = 0; inner < options_.inner_steps; ++inner) parameter_step(inner > 0);
  } else {
    parameter_step(false);
  }
}

std::optional<std::string> Trainer::divergence() const {
  // The optimizer's last step measured the largest |θ| as it wrote the parameters (NaN if one is NaN).
  if (!std::isfinite(largest_parameter_)) return std::string("a parameter became NaN or infinite");
  if (largest_parameter_ > options_.divergence_bound)
    return "a parameter reached |θ| = " + std::to_string(largest_parameter_) + " > bound " +
           std::to_string(options_.divergence_bound);
  return std::nullopt;
}

EvaluationPoint Trainer::evaluate(const TrainingHooks& hooks) const {
  EvaluationPoint point;
  point.update = updates_done_;
  point.epoch = epochs_done();
  const Rbm rbm = model();
  if (hooks.estimate_log_likelihood && options_.label_classes == 0) {
    // The caller's estimator replaces the monitor.
    point.train_log_likelihood = hooks.estimate_log_likelihood(rbm, train_);
    if (test_.size() > 0) point.test_log_likelihood = hooks.estimate_log_likelihood(rbm, test_);
  } else {
    monitor_.evaluate(rbm, train_, test_, point);
  }
  return point;
}

TrainingSummary Trainer::run(const TrainingHooks& hooks) {
  const auto start = std::chrono::steady_clock::now();
  TrainingSummary summary;
  const bool checkpoints = !options_.checkpoint_path.empty();
  auto record_evaluation = [&] {
    learning_curve_.push_back(evaluate(hooks));
    last_good_ = parameters_;
    last_good_update_ = updates_done_;
    if (hooks.on_evaluation) hooks.on_evaluation(learning_curve_.back());
  };
  const bool evaluating = options_.evaluation_interval > 0;
  if (!options_.trajectory_path.empty() && !trajectory_.is_open()) open_trajectory();
  keep_trajectory_model();
  if (evaluating && learning_curve_.empty()) record_evaluation();

  while (updates_done_ < options_.updates) {
    step();
    if (const auto problem = divergence()) {
      summary.termination = Termination::diverged;
      summary.message = "training diverged at update " + std::to_string(updates_done_) + ": " + *problem +
                        "; the parameters of update " + std::to_string(last_good_update_) + " were kept" +
                        (checkpoint_update_ ? " and the last checkpoint (" + options_.checkpoint_path + ", update " +
                                                  std::to_string(*checkpoint_update_) + ") is intact"
                                            : "");
      parameters_ = last_good_;
      sampling_copy_current_ = false;
      break;
    }
    keep_trajectory_model();
    if (evaluating && updates_done_ % options_.evaluation_interval == 0) record_evaluation();
    if (checkpoints && options_.checkpoint_interval > 0 && updates_done_ % options_.checkpoint_interval == 0) {
      save_checkpoint(options_.checkpoint_path);
      checkpoint_update_ = updates_done_;
      last_good_ = parameters_;
      last_good_update_ = updates_done_;
    }
    if (hooks.on_update) hooks.on_update(updates_done_);
    if (hooks.interrupt_requested && hooks.interrupt_requested() && updates_done_ < options_.updates) {
      summary.termination = Termination::interrupted;
      summary.message = "training interrupted at update " + std::to_string(updates_done_) +
                        (checkpoints ? "; resume from " + options_.checkpoint_path : "");
      break;
    }
  }
  if (summary.termination == Termination::completed) {
    summary.message = "training completed " + std::to_string(updates_done_) + " updates";
    if (evaluating && (learning_curve_.empty() || learning_curve_.back().update != updates_done_)) record_evaluation();
  }
  if (checkpoints && summary.termination != Termination::diverged) {
    save_checkpoint(options_.checkpoint_path);
    checkpoint_update_ = updates_done_;
  }

  summary.updates_done = updates_done_;
  summary.learning_curve = learning_curve_;
  summary.best = BestEvaluation(learning_curve_).best();
  if (!learning_curve_.empty()) summary.final = learning_curve_.back();
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

void Trainer::open_trajectory() {
  trajectory_updates_ =
      trajectory_schedule(options_.updates, options_.trajectory_models, options_.trajectory_spacing);
  // What makes two runs' trajectories the same: the parameter sequence and the schedule.
  const nlohmann::json configuration = {
      {"trajectory_fingerprint", nlohmann::json::parse(trajectory_fingerprint(options_))},
      {"planned_updates", options_.updates},
      {"models", options_.trajectory_models},
      {"spacing", to_string(options_.trajectory_spacing)}};
  const VectorD visible_means = train_.colwise().mean().transpose();
  trajectory_ = TrajectoryWriter::open(options_.trajectory_path, train_.cols(), parameters_.parameters.n_hidden(),
                                       configuration.dump(), visible_means, checkpoint_update_);
}

void Trainer::keep_trajectory_model() {
  if (!trajectory_.is_open() || updates_done_ <= trajectory_.last_update()) return;
  if (std::binary_search(trajectory_updates_.begin(), trajectory_updates_.end(), updates_done_))
    trajectory_.append(updates_done_, model());
}

CheckpointRun Trainer::checkpoint_run() const {
  return {trajectory_fingerprint(options_),  train_.rows(),      train_.cols(),
          parameters_.parameters.n_hidden(), batches_per_epoch_, options_.updates};
}

void Trainer::save_checkpoint(const std::filesystem::path& path) const {
  rbmix::save_checkpoint(
      path, checkpoint_run(),
      {updates_done_, batch_in_epoch_, permutation_, data_stream_, parameters_, optimizer_.velocity(), learning_curve_,
       monitor_.save_state()},
      negative_phase());
}

void Trainer::load_checkpoint(const std::filesystem::path& path) {
  TrainingState state = rbmix::load_checkpoint(path, checkpoint_run(), negative_phase());
  monitor_.load_state(state.monitor_state, path.string(), state.updates_done);
  updates_done_ = state.updates_done;
  batch_in_epoch_ = state.batch_in_epoch;
  permutation_ = std::move(state.permutation);
  data_stream_ = state.data_stream;
  parameters_ = std::move(state.parameters);
  optimizer_.velocity() = std::move(state.velocity);
  learning_curve_ = std::move(state.learning_curve);
  last_good_ = parameters_;
  last_good_update_ = updates_done_;
  checkpoint_update_ = updates_done_;
  sampling_copy_current_ = false;
}

}  // namespace rbmix
