#pragma once
// AR(1) test series x_{t+1} = φ x_t + ε_t, ε ~ N(0, 1), started in the stationary law N(0, 1/(1−φ²)):
// autocorrelation ρ(Δt) = φ^{|Δt|} and integrated autocorrelation time τ = (1 + φ)/(1 − φ).
#include <cmath>
#include <cstdint>

#include "rbmix/core/types.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix::testing {

// One column per chain; chain k draws from RandomStream(seed, k, experiment).
inline MatrixD autoregressive_series(double coefficient, Eigen::Index steps, Eigen::Index chains, std::uint64_t seed) {
  MatrixD traces(steps, chains);
  for (Eigen::Index chain = 0; chain < chains; ++chain) {
    RandomStream stream(seed, static_cast<std::uint64_t>(chain), StreamDomain::experiment);
    double value = stream.normal() / std::sqrt(1.0 - coefficient * coefficient);
    for (Eigen::Index step = 0; step < steps; ++step) {
      traces(step, chain) = value;
      value = coefficient * value + stream.normal();
    }
  }
  return traces;
}

inline double autoregressive_integrated_time_exact(double coefficient) {
  return (1.0 + coefficient) / (1.0 - coefficient);
}

}  // namespace rbmix::testing
