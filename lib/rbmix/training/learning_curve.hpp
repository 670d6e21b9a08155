#pragma once
// One point of a training run's learning curve: what the trainer's evaluation measured after an update. The
// trainer writes these, checkpoints keep them, and the front-ends print them; nothing here depends on how training
// is done.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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
  // The exact averages beside an estimate, where the smaller layer is enumerable (the trajectory monitor).
  std::optional<double> train_log_likelihood_exact;
  std::optional<double> test_log_likelihood_exact;
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

// Every measured field of a point, by the name that the learning-curve file's columns and Python's learning-curve
// dict use, in their order.
struct EvaluationField {
  const char* name;
  std::optional<double> EvaluationPoint::*field;
};
inline constexpr EvaluationField evaluation_fields[] = {
    {"train_log_likelihood", &EvaluationPoint::train_log_likelihood},
    {"test_log_likelihood", &EvaluationPoint::test_log_likelihood},
    {"train_log_likelihood_lower", &EvaluationPoint::train_log_likelihood_lower},
    {"train_log_likelihood_upper", &EvaluationPoint::train_log_likelihood_upper},
    {"test_log_likelihood_lower", &EvaluationPoint::test_log_likelihood_lower},
    {"test_log_likelihood_upper", &EvaluationPoint::test_log_likelihood_upper},
    {"train_log_likelihood_exact", &EvaluationPoint::train_log_likelihood_exact},
    {"test_log_likelihood_exact", &EvaluationPoint::test_log_likelihood_exact},
    {"train_error", &EvaluationPoint::train_error},
    {"test_error", &EvaluationPoint::test_error},
    {"train_pseudo_log_likelihood", &EvaluationPoint::train_pseudo_log_likelihood},
    {"test_pseudo_log_likelihood", &EvaluationPoint::test_pseudo_log_likelihood},
    {"train_reconstruction_error", &EvaluationPoint::train_reconstruction_error},
    {"test_reconstruction_error", &EvaluationPoint::test_reconstruction_error},
    {"free_energy_gap", &EvaluationPoint::free_energy_gap},
};

// The fields that some point of `curve` holds, in the order of evaluation_fields: the columns of a learning curve,
// none of them all missing.
inline std::vector<EvaluationField> measured_fields(const std::vector<EvaluationPoint>& curve) {
  std::vector<EvaluationField> present;
  for (const EvaluationField& named : evaluation_fields)
    if (std::any_of(curve.begin(), curve.end(),
                    [&](const EvaluationPoint& point) { return (point.*named.field).has_value(); }))
      present.push_back(named);
  return present;
}

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
