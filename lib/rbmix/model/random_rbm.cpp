#include "rbmix/model/random_rbm.hpp"

#include <cmath>

#include "rbmix/random/random_stream.hpp"

namespace rbmix {

Rbm uniform_random_rbm(Eigen::Index n_visible, Eigen::Index n_hidden, double weight_range, double bias_range,
                       std::uint64_t seed) {
  require(n_visible > 0 && n_hidden > 0, "random model: both layers need at least one unit");
  require(std::isfinite(weight_range) && weight_range >= 0.0, "random model: the weight range must be finite and >= 0");
  require(std::isfinite(bias_range) && bias_range >= 0.0, "random model: the bias range must be finite and >= 0");
  RandomStream stream(seed, 0, StreamDomain::initialisation);
  const auto draw = [&stream](double range) { return range * (2.0 * stream.uniform() - 1.0); };
  Rbm rbm(n_visible, n_hidden);
  for (Eigen::Index k = 0; k < rbm.weights.size(); ++k) rbm.weights.data()[k] = draw(weight_range);
  for (auto& value : rbm.visible_bias) value = draw(bias_range);
  for (auto& value : rbm.hidden_bias) value = draw(bias_range);
  return rbm;
}

}  // namespace rbmix
