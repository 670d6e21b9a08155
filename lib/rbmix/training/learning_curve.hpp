#pragma once
// One point of a training run's learning curve: what the trainer's evaluation measured after an update. The
// trainer writes these, checkpoints keep them, and the front-ends print them; nothing here depends on how training
// is done.
#include <cstdint>
#include <optional>

namespace rbmix {

struct EvaluationPoint {
  std::int64_t update = 0;
  double epoch = 0.0;
  std::optional<double> train_log_likelihood;  // average over the rows
  std::optional<double> test_log_likelihood;
  // Classification RBMs (options.label_classes > 0): the fraction of rows whose label argmax_y p(y | x) misses.
  std::optional<double> train_error;
  std::optional<double> test_error;
};

}  // namespace rbmix
