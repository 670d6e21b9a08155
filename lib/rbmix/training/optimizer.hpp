#pragma once
// Optimizer: the parameter step shared by every training algorithm (docs/algorithms.md §3), gradient ASCENT on the
// average log-likelihood with momentum and L2 weight decay on W:
//   velocity ← momentum · velocity + η (g − decay · W_weights-only),   θ ← θ + velocity.
// With momentum 0 this is θ ← θ + η (g − decay · W) exactly. The learning rate at update t of U is η (constant) or
// η (1 − t/U) (linear decay to 0, 000 §4.5).
#include <cstdint>

#include "rbmix/model/rbm.hpp"
#include "rbmix/training/training_options.hpp"

namespace rbmix {

inline double scheduled_learning_rate(const TrainingOptions& options, std::int64_t update) {
  if (options.schedule == LearningRateSchedule::constant || options.updates == 0) return options.learning_rate;
  return options.learning_rate * (1.0 - static_cast<double>(update) / static_cast<double>(options.updates));
}

class Optimizer {
 public:
  Optimizer(double momentum, double weight_decay, Eigen::Index n_visible, Eigen::Index n_hidden)
      : momentum_(momentum), weight_decay_(weight_decay), velocity_(n_visible, n_hidden) {}

  void step(Rbm& parameters, const Rbm& gradient, double learning_rate) {
    if (momentum_ == 0.0) {
      // The same numbers as the momentum form with velocity 0, in one pass over W instead of three: the update is
      // memory-bound on large models (a 784 × 500 W is 3 MB).
      if (weight_decay_ == 0.0) {
        parameters.weights.noalias() += learning_rate * gradient.weights;
      } else {
        parameters.weights.noalias() +=
            learning_rate * gradient.weights - (learning_rate * weight_decay_) * parameters.weights;
      }
      parameters.visible_bias.noalias() += learning_rate * gradient.visible_bias;
      parameters.hidden_bias.noalias() += learning_rate * gradient.hidden_bias;
      return;
    }
    velocity_.weights = momentum_ * velocity_.weights + learning_rate * gradient.weights;
    if (weight_decay_ != 0.0) velocity_.weights -= (learning_rate * weight_decay_) * parameters.weights;
    velocity_.visible_bias = momentum_ * velocity_.visible_bias + learning_rate * gradient.visible_bias;
    velocity_.hidden_bias = momentum_ * velocity_.hidden_bias + learning_rate * gradient.hidden_bias;
    parameters.weights += velocity_.weights;
    parameters.visible_bias += velocity_.visible_bias;
    parameters.hidden_bias += velocity_.hidden_bias;
  }

  const Rbm& velocity() const { return velocity_; }
  Rbm& velocity() { return velocity_; }

 private:
  double momentum_;
  double weight_decay_;
  Rbm velocity_;
};

}  // namespace rbmix
