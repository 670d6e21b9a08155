#pragma once
// Exact log Z, log-likelihood and model statistics of a Boltzmann machine by enumerating all 2ⁿ states, for
// n ≤ kMaxEnumeratedBoltzmannMachineUnits (000 §5.5 evaluates its 25-unit MRFs this way; log Z alone up to
// kMaxEnumeratedLogPartitionUnits).
//
// How: the states are split into a fixed number of blocks (fixed by n alone, so the result does not depend on the
// thread count); OpenMP shares the blocks. Within a block the low units run through a Gray code, so consecutive
// states differ in one unit j and −E and the local fields h = b + Jx are updated in O(n):
// flipping x_j changes −E by ±h_j (J_jj = 0) and h by ±J_·j. Each block sums exp(−E − M_block) with its own
// maximum M_block; blocks are combined in index order by log-sum-exp.
#include "rbmix/model/boltzmann_machine.hpp"

namespace rbmix {

// Training enumerates at every update and evaluation (the exact gradient, exact validation): 25 units, as 000 §5.5.
inline constexpr Eigen::Index kMaxEnumeratedBoltzmannMachineUnits = 25;
// One log Z alone (scoring a fitted model, `rbmix mrf loglik`): 2^30 states, about a minute on two cores.
inline constexpr Eigen::Index kMaxEnumeratedLogPartitionUnits = 30;

// log Z. Validates the model; throws InputError if n > kMaxEnumeratedLogPartitionUnits.
double exact_log_partition(const BoltzmannMachine& model);

// log Z and E_p[x xᵀ], E_p[x] under the model, from one enumeration.
struct ExactBoltzmannMachineSummary {
  double log_partition = 0.0;
  BoltzmannMachineStatistics statistics;
};
ExactBoltzmannMachineSummary exact_summary(const BoltzmannMachine& model);

// Mean log p(x) over the rows of `data` (0/1 entries, n columns) given log Z.
double mean_log_likelihood(const BoltzmannMachine& model, const BinaryMatrix& data, double log_partition);

// Gradient of the mean log-likelihood of the data whose statistics are `data_statistics` (000 §5.5: data
// statistics minus model statistics, the latter exact).
BoltzmannMachineGradient exact_log_likelihood_gradient(const BoltzmannMachine& model,
                                                       const BoltzmannMachineStatistics& data_statistics);

}  // namespace rbmix
