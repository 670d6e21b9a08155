#include "rbmix/sampling/boltzmann_machine_chains.hpp"

#include <string>

#include "rbmix/core/entry_checks.hpp"
#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {
// Multiply-adds per sweep call below which one thread is faster than starting a team (measured order: the cost of
// a parallel region is tens of microseconds, a multiply-add about a nanosecond).
constexpr Eigen::Index kMinimumParallelWork = Eigen::Index{1} << 17;
}  // namespace

BoltzmannMachineChains::BoltzmannMachineChains(MatrixD initial_states, UnitRule rule, std::uint64_t seed)
    : states_(std::move(initial_states)), rule_(rule) {
  require(states_.rows() >= 1, "Boltzmann machine chains: no initial states");
  require(all_binary(states_), "Boltzmann machine chains: initial states must be 0 or 1");
  streams_.reserve(static_cast<std::size_t>(states_.rows()));
  for (Eigen::Index chain = 0; chain < states_.rows(); ++chain)
    streams_.emplace_back(seed, static_cast<std::uint64_t>(chain), StreamDomain::chains);
}

void BoltzmannMachineChains::sweep(const BoltzmannMachine& model, int sweeps) {
  require(model.size() == states_.cols(), "Boltzmann machine chains: the model has " + std::to_string(model.size()) +
                                              " units but the chains have " + std::to_string(states_.cols()));
  require(sweeps >= 0, "Boltzmann machine chains: the number of sweeps must be non-negative");
  const Eigen::Index n = model.size();
  // Threads only pay off when each has real work; small sweeps run faster on one.
  const bool parallel = states_.rows() * n * n * sweeps >= kMinimumParallelWork;
#pragma omp parallel for schedule(static) if (parallel)
  for (Eigen::Index chain = 0; chain < states_.rows(); ++chain) {
    RandomStream& stream = streams_[static_cast<std::size_t>(chain)];
    auto state = states_.row(chain);
    for (int repeat = 0; repeat < sweeps; ++repeat)
      for (Eigen::Index unit = 0; unit < n; ++unit) {
        const double field = model.biases(unit) + model.couplings.row(unit).dot(state);
        const double probability = probability_of_one(rule_, field, state(unit));
        state(unit) = stream.uniform() < probability ? 1.0 : 0.0;
      }
  }
}

}  // namespace rbmix
