#pragma once
// Test models and independent answers for Boltzmann machines: random parameters from a fixed stream, and brute
// force over all 2ⁿ states in long double with −E summed term by term (no shared code path with the library's
// Gray-code enumeration).
#include <cstdint>

#include "rbmix/model/boltzmann_machine.hpp"

namespace rbmix::testing {

// Couplings and biases uniform in [−scale, scale] (J symmetric, zero diagonal) from stream (seed, 0).
BoltzmannMachine random_boltzmann_machine(Eigen::Index units, double scale, std::uint64_t seed);

// −E(x) = Σ_{i<j} J_ij x_i x_j + Σ_i b_i x_i in long double.
long double brute_force_negative_energy(const BoltzmannMachine& model, const Eigen::RowVectorXd& state);

// log Z by summing over all 2ⁿ states (index x = Σ_k x_k 2^k) in long double.
long double brute_force_log_partition(const BoltzmannMachine& model);

// p(x) for all 2ⁿ states, same index order.
Eigen::VectorXd brute_force_probabilities(const BoltzmannMachine& model);

}  // namespace rbmix::testing
