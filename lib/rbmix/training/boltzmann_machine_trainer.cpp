#include "rbmix/training/boltzmann_machine_trainer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "rbmix/core/error.hpp"
#include "rbmix/model/boltzmann_machine_enumeration.hpp"
#include "rbmix/model/pseudo_likelihood.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/sampling/boltzmann_machine_chains.hpp"

namespace rbmix {
namespace {

using Clock = std::chrono::steady_clock;

BoltzmannMachine independent_units_fit(const BinaryMatrix& training) {
  BoltzmannMachine model = BoltzmannMachine::zeros(training.cols());
  const VectorD means = training.cast<double>().colwise().mean().transpose();
  for (Eigen::Index unit = 0; unit < means.size(); ++unit) {
    const double p = std::clamp(means(unit), kStartingMeanClamp, 1.0 - kStartingMeanClamp);
    model.biases(unit) = std::log(p / (1.0 - p));
  }
  return model;
}

double validation_score(const BoltzmannMachine& model, const BinaryMatrix& validation,
                        BoltzmannMachineValidation measure) {
  if (measure == BoltzmannMachineValidation::exact_log_likelihood)
    return mean_log_likelihood(model, validation, exact_log_partition(model));
  return mean_log_pseudo_likelihood(model, validation.cast<double>());
}

// One gradient per update for the chosen algorithm; owns what persists between updates (chains, batch order).
class GradientSource {
 public:
  GradientSource(const BinaryMatrix& training, const BoltzmannMachineTrainingOptions& options)
      : options_(options),
        training_(training.cast<double>()),
        data_statistics_(empirical_statistics(training_)),
        order_(static_cast<std::size_t>(training.rows())) {
    std::iota(order_.begin(), order_.end(), Eigen::Index{0});
    if (options.algorithm == BoltzmannMachineAlgorithm::persistent_chains) {
      RandomStream stream(options.seed, 0, StreamDomain::initialisation);
      MatrixD initial(options.chains, training.cols());
      for (auto& entry : initial.reshaped()) entry = stream.uniform() < 0.5 ? 1.0 : 0.0;
      chains_.emplace_back(std::move(initial), options.rule, options.seed);
    }
  }

  BoltzmannMachineGradient next(const BoltzmannMachine& model) {
    switch (options_.algorithm) {
      case BoltzmannMachineAlgorithm::exact_gradient:
        return exact_log_likelihood_gradient(model, data_statistics_);
      case BoltzmannMachineAlgorithm::persistent_chains:
        chains_.front().sweep(model, options_.sweeps_per_update);
        return statistics_difference(data_statistics_, empirical_statistics(chains_.front().states()));
      case BoltzmannMachineAlgorithm::pseudo_likelihood:
        break;
    }
    return log_pseudo_likelihood_gradient(model, next_batch());
  }

 private:
  // Rows of the next mini-batch; the order is reshuffled (stream `epoch` of the data domain) at each epoch start.
  MatrixD next_batch() {
    const auto rows = static_cast<Eigen::Index>(order_.size());
    if (position_ == 0) {
      RandomStream stream(options_.seed, epoch_, StreamDomain::data);
      for (Eigen::Index i = rows - 1; i > 0; --i)
        std::swap(order_[static_cast<std::size_t>(i)], order_[stream.below(static_cast<std::uint64_t>(i) + 1)]);
    }
    const Eigen::Index size = std::min(options_.batch_size, rows - position_);
    MatrixD batch(size, training_.cols());
    for (Eigen::Index row = 0; row < size; ++row)
      batch.row(row) = training_.row(order_[static_cast<std::size_t>(position_ + row)]);
    position_ += size;
    if (position_ == rows) {
      position_ = 0;
      ++epoch_;
    }
    return batch;
  }

  const BoltzmannMachineTrainingOptions& options_;
  MatrixD training_;
  BoltzmannMachineStatistics data_statistics_;
  std::vector<BoltzmannMachineChains> chains_;  // one element for PCD, none otherwise
  std::vector<Eigen::Index> order_;
  Eigen::Index position_ = 0;
  std::uint64_t epoch_ = 0;
};

}  // namespace

BoltzmannMachineAlgorithm parse_boltzmann_machine_algorithm(const std::string& text) {
  if (text == "exact") return BoltzmannMachineAlgorithm::exact_gradient;
  if (text == "pcd") return BoltzmannMachineAlgorithm::persistent_chains;
  if (text == "pl") return BoltzmannMachineAlgorithm::pseudo_likelihood;
  throw InputError("algorithm: expected exact, pcd or pl, got '" + text + "'");
}

std::string to_string(BoltzmannMachineAlgorithm algorithm) {
  switch (algorithm) {
    case BoltzmannMachineAlgorithm::exact_gradient:
      return "exact";
    case BoltzmannMachineAlgorithm::persistent_chains:
      return "pcd";
    case BoltzmannMachineAlgorithm::pseudo_likelihood:
      break;
  }
  return "pl";
}

void BoltzmannMachineTrainingOptions::validate() const {
  require(std::isfinite(learning_rate) && learning_rate > 0.0, "learning rate: must be positive and finite");
  require(updates >= 1, "updates: must be at least 1");
  require(batch_size >= 1, "batch size: must be at least 1");
  require(chains >= 1, "chains: must be at least 1");
  require(sweeps_per_update >= 1, "sweeps per update: must be at least 1");
  require(evaluation_interval >= 1, "evaluation interval: must be at least 1");
}

BoltzmannMachineTrainingSummary train_boltzmann_machine(const BinaryMatrix& training, const BinaryMatrix& validation,
                                                        const BoltzmannMachineTrainingOptions& options) {
  options.validate();
  empirical_statistics(training, "training data");
  empirical_statistics(validation, "validation data");
  require(validation.cols() == training.cols(), "validation data: " + std::to_string(validation.cols()) +
                                                    " columns but the training data has " +
                                                    std::to_string(training.cols()));
  const bool needs_enumeration = options.algorithm == BoltzmannMachineAlgorithm::exact_gradient ||
                                 options.validation == BoltzmannMachineValidation::exact_log_likelihood;
  require(!needs_enumeration || training.cols() <= kMaxEnumeratedBoltzmannMachineUnits,
          "training data: exact gradient or exact validation needs at most " +
              std::to_string(kMaxEnumeratedBoltzmannMachineUnits) + " units, the data has " +
              std::to_string(training.cols()));

  BoltzmannMachine model = independent_units_fit(training);
  GradientSource gradients(training, options);
  BoltzmannMachineTrainingSummary summary;
  double training_seconds = 0.0;
  const auto evaluate = [&](std::int64_t update) {
    const double score = validation_score(model, validation, options.validation);
    summary.history.push_back({update, training_seconds, score});
    if (summary.history.size() == 1 || score > summary.best_validation_score) {
      summary.best_model = model;
      summary.best_update = update;
      summary.best_validation_score = score;
    }
  };
  evaluate(0);
  for (std::int64_t update = 0; update < options.updates; ++update) {
    const auto start = Clock::now();
    const double learning_rate =
        options.learning_rate * (1.0 - static_cast<double>(update) / static_cast<double>(options.updates));
    apply_step(model, gradients.next(model), learning_rate);
    training_seconds += std::chrono::duration<double>(Clock::now() - start).count();
    const std::int64_t done = update + 1;
    if (done % options.evaluation_interval == 0 || done == options.updates) evaluate(done);
  }
  summary.final_model = std::move(model);
  return summary;
}

}  // namespace rbmix
