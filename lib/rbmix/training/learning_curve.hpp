#pragma once
// One point of a training run's learning curve: what the trainer's evaluation measured after an update. The
// trainer writes these, checkpoints keep them, and the front-ends print them; nothing here depends on how training
// is done.
#include <cstdint>
#include <optional>
#include <string>

namespace rbmix {

struct EvaluationPoint {
  std::int64_t update = 0;
  double epoch = 0.0;
  std::optional<double> train_log_likelihood;  // average over the rows
  std::optional<double> test_log_likelihood;
  // An estimated log-likelihood's band (AIS: from log Ẑ ± 3 standard errors; the lower end may be −∞).
  std::optional<double> train_log_likelihood_lower;
  std::optional<double> train_log_likelihood_upper;
  std::optional<double> test_log_likelihood_lower;
  std::optional<double> test_log_likelihood_upper;
  // Proxies that need no partition function (training_monitor.hpp): mean log pseudo-likelihood, mean squared
  // reconstruction error, and the free-energy gap mean F(test) − mean F(train).
  std::optional<double> train_pseudo_log_likelihood;
  std::optional<double> test_pseudo_log_likelihood;
  std::optional<double> train_reconstruction_error;
  std::optional<double> test_reconstruction_error;
  std::optional<double> free_energy_gap;
  // Classification RBMs (options.label_classes > 0): the fraction of rows whose label argmax_y p(y | x) misses.
  std::optional<double> train_error;
  std::optional<double> test_error;
};

// The score by which a run's best evaluation is chosen (higher is better): the training log-likelihood where it was
// measured (exact or estimated), else the training pseudo-log-likelihood, else minus the training classification
// error. monitored_score_name says which field it is.
inline std::optional<double> monitored_score(const EvaluationPoint& point) {
  if (point.train_log_likelihood) return point.train_log_likelihood;
  if (point.train_pseudo_log_likelihood) return point.train_pseudo_log_likelihood;
  if (point.train_error) return -*point.train_error;
  return std::nullopt;
}

inline std::string monitored_score_name(const EvaluationPoint& point) {
  if (point.train_log_likelihood) return "train_log_likelihood";
  if (point.train_pseudo_log_likelihood) return "train_pseudo_log_likelihood";
  if (point.train_error) return "train_error (lowest)";
  return "none";
}

}  // namespace rbmix
