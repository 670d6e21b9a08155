#pragma once
// Optimizer: the parameter step shared by every training algorithm (docs/algorithms/training.md §3), gradient ASCENT on
// the average log-likelihood with momentum and L2 weight decay on W:
//   velocity ← momentum · velocity + η (g − decay · W_weights-only),   θ ← θ + velocity.
// With momentum 0 this is θ ← θ + η (g − decay · W) exactly. The learning rate at update t of U is η (constant) or
// η (1 − t/U) (linear decay to 0, 000 §4.5).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "rbmix/model/rbm.hpp"
#include "rbmix/model/statistics.hpp"
#include "rbmix/training/training_options.hpp"

namespace rbmix {

inline double scheduled_learning_rate(const TrainingOptions& options, std::int64_t update) {
  if (options.schedule == LearningRateSchedule::constant || options.updates == 0) return options.learning_rate;
  return options.learning_rate * (1.0 - static_cast<double>(update) / static_cast<double>(options.updates));
}

// The parts of the parameters, each one contiguous array.
enum class ParameterPart { weights, visible_bias, hidden_bias };

// A gradient as the optimizer reads it, one block of one part at a time: `block(part, first, count)` is an Eigen
// array expression of doubles. Stored: a gradient written out in double.
struct StoredGradient {
  const Rbm& gradient;
  auto block(ParameterPart part, Eigen::Index first, Eigen::Index count) const {
    const double* data = part == ParameterPart::weights        ? gradient.weights.data()
                         : part == ParameterPart::visible_bias ? gradient.visible_bias.data()
                                                               : gradient.hidden_bias.data();
    return Eigen::Map<const Eigen::ArrayXd>(data + first, count);
  }
};

// The plain gradient positive − negative of two statistics (statistics.hpp), formed in Scalar and widened as it is
// read: the same numbers as statistics_difference, without writing them out.
template <typename Scalar>
struct StatisticsGradient {
  const BasicStatistics<Scalar>& positive;
  const BasicStatistics<Scalar>& negative;
  static const Scalar* data(const BasicStatistics<Scalar>& statistics, ParameterPart part) {
    return part == ParameterPart::weights        ? statistics.hidden_visible.data()
           : part == ParameterPart::visible_bias ? statistics.visible.data()
                                                 : statistics.hidden.data();
  }
  auto block(ParameterPart part, Eigen::Index first, Eigen::Index count) const {
    using Block = Eigen::Map<const Eigen::Array<Scalar, Eigen::Dynamic, 1>>;
    return (Block(data(positive, part) + first, count) - Block(data(negative, part) + first, count))
        .template cast<double>();
  }
};

class Optimizer {
 public:
  Optimizer(double momentum, double weight_decay, Eigen::Index n_visible, Eigen::Index n_hidden)
      : momentum_(momentum), weight_decay_(weight_decay), velocity_(n_visible, n_hidden) {}

  // θ ← θ + the step above for `gradient` (StoredGradient or StatisticsGradient), and returns the largest |θ|
  // afterwards (NaN if a parameter is NaN, +∞ if one is infinite): the divergence check's number. With `copy`, also
  // writes θ in the sampling precision there. Each parameter array is passed over once, block by block, the
  // gradient read, the step, the copy and the magnitude taken while the block is in cache: on a 784 × 500 model
  // (a 3 MB W) a separate pass for each cost more than the products of a batch of 10. The numbers are those of the
  // step written as whole-array expressions.
  template <typename Gradient, typename Scalar = double>
  double step(Rbm& parameters, const Gradient& gradient, double learning_rate, BasicRbm<Scalar>* copy = nullptr) {
    if (copy) {
      copy->weights.resize(parameters.weights.rows(), parameters.weights.cols());
      copy->visible_bias.resize(parameters.visible_bias.size());
      copy->hidden_bias.resize(parameters.hidden_bias.size());
    }
    const double weights =
        step_part(ParameterPart::weights, parameters.weights.data(), gradient, velocity_.weights.data(),
                  parameters.weights.size(), learning_rate, weight_decay_, copy ? copy->weights.data() : nullptr);
    const double visible =
        step_part(ParameterPart::visible_bias, parameters.visible_bias.data(), gradient, velocity_.visible_bias.data(),
                  parameters.visible_bias.size(), learning_rate, 0.0, copy ? copy->visible_bias.data() : nullptr);
    const double hidden =
        step_part(ParameterPart::hidden_bias, parameters.hidden_bias.data(), gradient, velocity_.hidden_bias.data(),
                  parameters.hidden_bias.size(), learning_rate, 0.0, copy ? copy->hidden_bias.data() : nullptr);
    return larger(weights, larger(visible, hidden));
  }

  double step(Rbm& parameters, const Rbm& gradient, double learning_rate) {
    return step(parameters, StoredGradient{gradient}, learning_rate);
  }

  const Rbm& velocity() const { return velocity_; }
  Rbm& velocity() { return velocity_; }

 private:
  // NaN wins, so that a NaN anywhere reaches the divergence check.
  static double larger(double a, double b) { return std::isnan(a) || a > b ? a : b; }

  // max |θ| of a block, NaN if an entry is NaN, +∞ if one is infinite. Eigen's NaN-propagating maximum runs one
  // dependent chain of compare, mask and max per packet (11 % of a PCD-1 update at batch 10); where every entry is
  // finite — (θ − θ) sums to 0 exactly when none is NaN or infinite — the plain maximum is the same number, in
  // a fraction of the time, and only a non-finite block takes the slow one.
  static double largest_magnitude(const Eigen::Map<Eigen::ArrayXd>& theta) {
    const double largest = theta.abs().template maxCoeff<Eigen::PropagateFast>();
    if ((theta - theta).sum() == 0.0) return largest;
    return theta.abs().template maxCoeff<Eigen::PropagateNaN>();
  }

  // One part, in blocks of `block` entries. Large parts are split over threads by whole blocks: every entry's
  // arithmetic is the same whichever thread does it, and the largest magnitude does not depend on the order.
  template <typename Gradient, typename Scalar>
  double step_part(ParameterPart part, double* parameters, const Gradient& gradient, double* velocity,
                   Eigen::Index size, double learning_rate, double weight_decay, Scalar* copy) {
    constexpr Eigen::Index block = 2048;  // 16 KB of each double array: the block stays in L1 between its uses
    constexpr Eigen::Index parallel_size = 1 << 16;  // a thread team costs more than a pass over fewer entries
    const Eigen::Index blocks = (size + block - 1) / block;
    const auto step_block = [&](Eigen::Index first) {
      const Eigen::Index count = std::min(block, size - first);
      Eigen::Map<Eigen::ArrayXd> theta(parameters + first, count);
      const auto g = gradient.block(part, first, count);
      if (momentum_ == 0.0) {
        // The momentum form with velocity 0, without reading or writing the velocity.
        if (weight_decay == 0.0) {
          theta += learning_rate * g;
        } else {
          theta += learning_rate * g - (learning_rate * weight_decay) * theta;
        }
      } else {
        Eigen::Map<Eigen::ArrayXd> v(velocity + first, count);
        v = momentum_ * v + learning_rate * g;
        if (weight_decay != 0.0) v -= (learning_rate * weight_decay) * theta;
        theta += v;
      }
      if (copy)
        Eigen::Map<Eigen::Array<Scalar, Eigen::Dynamic, 1>>(copy + first, count) = theta.template cast<Scalar>();
      return largest_magnitude(theta);
    };
    double largest = 0.0;
    if (size < parallel_size) {
      for (Eigen::Index first = 0; first < size; first += block) largest = larger(largest, step_block(first));
      return largest;
    }
    block_largest_.resize(static_cast<std::size_t>(blocks));
#pragma omp parallel for schedule(static)
    for (Eigen::Index index = 0; index < blocks; ++index)
      block_largest_[static_cast<std::size_t>(index)] = step_block(index * block);
    for (const double value : block_largest_) largest = larger(largest, value);
    return largest;
  }

  double momentum_;
  double weight_decay_;
  Rbm velocity_;
  std::vector<double> block_largest_;  // workspace of the threaded pass
};

}  // namespace rbmix
