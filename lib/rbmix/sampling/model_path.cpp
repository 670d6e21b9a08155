#include "rbmix/sampling/model_path.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "rbmix/core/error.hpp"

namespace rbmix {

ModelPath::ModelPath(std::vector<Rbm> knots, std::vector<std::string> labels)
    : knots_(std::move(knots)), labels_(std::move(labels)) {
  require(knots_.size() >= 2, "model path: a path needs at least 2 models, got " + std::to_string(knots_.size()));
  require(labels_.size() == knots_.size(), "model path: one label per model");
  for (std::size_t index = 0; index < knots_.size(); ++index) {
    knots_[index].validate("model path: " + labels_[index]);
    require(knots_[index].n_visible() == n_visible() && knots_[index].n_hidden() == n_hidden(),
            "model path: " + labels_[index] + " has " + std::to_string(knots_[index].n_visible()) + " × " +
                std::to_string(knots_[index].n_hidden()) + " units, the first model " +
                std::to_string(n_visible()) + " × " + std::to_string(n_hidden()));
  }
  require(knots_.front().weights.isZero(),
          "model path: the first model must have no couplings (W = 0), so that it is sampled exactly");
}

Rbm interpolate(const Rbm& from, const Rbm& to, double fraction) {
  Rbm model;
  model.weights = (1.0 - fraction) * from.weights + fraction * to.weights;
  model.visible_bias = (1.0 - fraction) * from.visible_bias + fraction * to.visible_bias;
  model.hidden_bias = (1.0 - fraction) * from.hidden_bias + fraction * to.hidden_bias;
  return model;
}

Rbm ModelPath::at(double position) const {
  require(std::isfinite(position) && position >= 0.0 && position <= static_cast<double>(segments()),
          "model path: position " + std::to_string(position) + " lies outside [0, " + std::to_string(segments()) +
              "]");
  const auto segment = std::min<Eigen::Index>(static_cast<Eigen::Index>(std::floor(position)), segments() - 1);
  const double fraction = position - static_cast<double>(segment);
  if (fraction == 0.0) return knots_[static_cast<std::size_t>(segment)];
  if (fraction == 1.0) return knots_[static_cast<std::size_t>(segment + 1)];
  return interpolate(knots_[static_cast<std::size_t>(segment)], knots_[static_cast<std::size_t>(segment + 1)],
                     fraction);
}

std::vector<double> ModelPath::evenly_spaced_positions(Eigen::Index count) const {
  const Eigen::Index per_segment = std::max<Eigen::Index>(1, (count + segments() - 1) / segments());
  std::vector<double> positions;
  positions.reserve(static_cast<std::size_t>(per_segment * segments() + 1));
  for (Eigen::Index segment = 0; segment < segments(); ++segment)
    for (Eigen::Index step = 0; step < per_segment; ++step)
      positions.push_back(static_cast<double>(segment) + static_cast<double>(step) / static_cast<double>(per_segment));
  positions.push_back(static_cast<double>(segments()));
  return positions;
}

std::string ModelPath::describe(double position) const {
  const auto segment = std::min<Eigen::Index>(static_cast<Eigen::Index>(std::floor(position)), segments() - 1);
  const double fraction = position - static_cast<double>(segment);
  if (fraction == 0.0) return labels_[static_cast<std::size_t>(segment)];
  if (fraction == 1.0) return labels_[static_cast<std::size_t>(segment + 1)];
  std::ostringstream text;
  text << labels_[static_cast<std::size_t>(segment)] << " + " << fraction << " of the way to "
       << labels_[static_cast<std::size_t>(segment + 1)];
  return text.str();
}

ModelPath temperature_path(const Rbm& model, const VectorD& base_visible_bias) {
  Rbm start(model.n_visible(), model.n_hidden());
  if (base_visible_bias.size() == 0) return {{start, model}, {"beta 0", "beta 1"}};
  require(base_visible_bias.size() == model.n_visible(), [&] {
    return "base visible biases: " + std::to_string(base_visible_bias.size()) + " values for a model of " +
           std::to_string(model.n_visible()) + " visible units";
  });
  require(base_visible_bias.allFinite(), "base visible biases: not all finite");
  start.visible_bias = base_visible_bias;
  return {{start, model}, {"beta 0 (base rate)", "beta 1"}};
}

}  // namespace rbmix
