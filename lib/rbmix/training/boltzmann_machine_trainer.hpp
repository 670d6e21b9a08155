#pragma once
// Training a Boltzmann machine (fully visible MRF) on binary data by the three methods 000 §5.5 compares:
//   exact_gradient      full-batch ascent on the mean log-likelihood, model statistics by enumeration (n ≤ 25);
//   persistent_chains   PCD: data statistics computed once over the training set, model statistics from persistent
//                       chains swept with a unit rule between updates (boltzmann_machine_chains.hpp);
//   pseudo_likelihood   ascent on the mean log pseudo-likelihood (Besag 1986) with shuffled mini-batches.
// Every method takes `updates` steps with the learning rate decaying linearly to 0 (000 §4.5), evaluates the
// validation set every `evaluation_interval` updates and at the end, and returns the best model seen (early
// stopping, which 000 §5.5 needs for PL). Couplings start at 0 and biases at the log-odds of the training means
// (clamped to [kStartingMeanClamp, 1 − kStartingMeanClamp]), the independent-units fit.
#include <cstdint>
#include <string>
#include <vector>

#include "rbmix/model/boltzmann_machine.hpp"
#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix {

enum class BoltzmannMachineAlgorithm { exact_gradient, persistent_chains, pseudo_likelihood };
enum class BoltzmannMachineValidation { exact_log_likelihood, pseudo_log_likelihood };

// "exact", "pcd", "pl"; InputError naming the text otherwise.
BoltzmannMachineAlgorithm parse_boltzmann_machine_algorithm(const std::string& text);
std::string to_string(BoltzmannMachineAlgorithm algorithm);

struct BoltzmannMachineTrainingOptions {
  BoltzmannMachineAlgorithm algorithm = BoltzmannMachineAlgorithm::pseudo_likelihood;
  BoltzmannMachineValidation validation = BoltzmannMachineValidation::exact_log_likelihood;
  double learning_rate = 0.01;
  std::int64_t updates = 1000;
  Eigen::Index batch_size = 50;  // pseudo-likelihood mini-batch (000 §5.5)
  Eigen::Index chains = 100;     // persistent chains
  int sweeps_per_update = 1;     // persistent chains
  UnitRule rule = GibbsRule{};   // persistent chains
  std::int64_t evaluation_interval = 100;
  std::uint64_t seed = 1;

  // Throws InputError naming the first option out of range.
  void validate() const;
};

struct BoltzmannMachineEvaluation {
  std::int64_t update = 0;
  double training_seconds = 0.0;  // time spent in updates so far, evaluations excluded
  double validation_score = 0.0;  // mean log-likelihood or mean log pseudo-likelihood per case
};

struct BoltzmannMachineTrainingSummary {
  BoltzmannMachine best_model;
  BoltzmannMachine final_model;  // after the last update, whether or not it is the best
  std::int64_t best_update = 0;
  double best_validation_score = 0.0;
  std::vector<BoltzmannMachineEvaluation> history;
};

inline constexpr double kStartingMeanClamp = 1e-3;

// Trains on the rows of `training` (entries 0/1) and selects by `validation` (same columns); InputError on shapes,
// entries or options (exact gradient and exact validation need at most kMaxEnumeratedBoltzmannMachineUnits columns).
BoltzmannMachineTrainingSummary train_boltzmann_machine(const BinaryMatrix& training, const BinaryMatrix& validation,
                                                        const BoltzmannMachineTrainingOptions& options);

}  // namespace rbmix
