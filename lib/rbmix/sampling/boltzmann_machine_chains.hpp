#pragma once
// Persistent chains on a Boltzmann machine (000 §5.5's PCD on fully visible MRFs). A sweep visits the units in
// order 0, 1, …, n−1 and sets each from its total input h_i = b_i + Σ_j J_ij x_j with a unit rule
// (docs/algorithms/operators.md §2): P(x_i ← 1) = probability_of_one(rule, h_i, x_i). Every rule leaves p(x_i | x_−i)
// invariant, so each unit update, and hence the sweep, keeps p(x) ∝ exp(½xᵀJx + bᵀx) stationary.
//
// Chain c draws from RandomStream(seed, c): one uniform per unit update, so the states do not depend on the thread
// count.
#include <cstdint>
#include <vector>

#include "rbmix/model/boltzmann_machine.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix {

class BoltzmannMachineChains {
 public:
  // `initial_states`: one chain per row, entries 0/1 (InputError otherwise, or if it has no rows).
  BoltzmannMachineChains(MatrixD initial_states, UnitRule rule, std::uint64_t seed);

  // `sweeps` sequential sweeps of every chain under `model` (n must match the states' columns).
  void sweep(const BoltzmannMachine& model, int sweeps = 1);

  const MatrixD& states() const { return states_; }

 private:
  MatrixD states_;
  UnitRule rule_;
  std::vector<RandomStream> streams_;
};

}  // namespace rbmix
