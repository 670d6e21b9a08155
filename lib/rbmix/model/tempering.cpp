#include "rbmix/model/tempering.hpp"

#include <cmath>
#include <string>

#include "rbmix/core/error.hpp"

namespace rbmix {

void validate_inverse_temperature(double inverse_temperature) {
  require(std::isfinite(inverse_temperature) && inverse_temperature >= 0.0,
          "inverse temperature β = " + std::to_string(inverse_temperature) + ": must be finite and ≥ 0");
}

Rbm tempered(const Rbm& rbm, double inverse_temperature) {
  Rbm out = rbm;
  out.weights *= inverse_temperature;
  out.visible_bias *= inverse_temperature;
  out.hidden_bias *= inverse_temperature;
  return out;
}

}  // namespace rbmix
