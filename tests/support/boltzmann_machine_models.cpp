#include "support/boltzmann_machine_models.hpp"

#include <cmath>
#include <vector>

#include "rbmix/random/random_stream.hpp"
#include "support/brute_force.hpp"

namespace rbmix::testing {

BoltzmannMachine random_boltzmann_machine(Eigen::Index units, double scale, std::uint64_t seed) {
  RandomStream stream(seed, 0, StreamDomain::initialisation);
  BoltzmannMachine model = BoltzmannMachine::zeros(units);
  for (Eigen::Index i = 0; i < units; ++i) {
    model.biases(i) = scale * (2.0 * stream.uniform() - 1.0);
    for (Eigen::Index j = 0; j < i; ++j) {
      model.couplings(i, j) = scale * (2.0 * stream.uniform() - 1.0);
      model.couplings(j, i) = model.couplings(i, j);
    }
  }
  return model;
}

long double brute_force_negative_energy(const BoltzmannMachine& model, const Eigen::RowVectorXd& state) {
  long double total = 0.0L;
  for (Eigen::Index i = 0; i < model.size(); ++i) {
    total += static_cast<long double>(model.biases(i)) * state(i);
    for (Eigen::Index j = 0; j < i; ++j) total += static_cast<long double>(model.couplings(i, j)) * state(i) * state(j);
  }
  return total;
}

namespace {
std::vector<long double> all_negative_energies(const BoltzmannMachine& model) {
  std::vector<long double> values;
  for (std::uint64_t index = 0; index < (std::uint64_t{1} << model.size()); ++index)
    values.push_back(brute_force_negative_energy(model, bits_of(index, model.size())));
  return values;
}
}  // namespace

long double brute_force_log_partition(const BoltzmannMachine& model) {
  const std::vector<long double> values = all_negative_energies(model);
  long double max = values.front();
  for (long double value : values) max = std::max(max, value);
  long double sum = 0.0L;
  for (long double value : values) sum += std::exp(value - max);
  return max + std::log(sum);
}

Eigen::VectorXd brute_force_probabilities(const BoltzmannMachine& model) {
  const std::vector<long double> values = all_negative_energies(model);
  const long double log_partition = brute_force_log_partition(model);
  Eigen::VectorXd probabilities(static_cast<Eigen::Index>(values.size()));
  for (std::size_t k = 0; k < values.size(); ++k)
    probabilities(static_cast<Eigen::Index>(k)) = static_cast<double>(std::exp(values[k] - log_partition));
  return probabilities;
}

}  // namespace rbmix::testing
