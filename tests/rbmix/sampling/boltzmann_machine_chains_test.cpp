#include "rbmix/sampling/boltzmann_machine_chains.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <vector>

#include "rbmix/core/error.hpp"
#include "rbmix/verify/chi_squared.hpp"
#include "rbmix/verify/gtest_adapter.hpp"
#include "rbmix/verify/operator_invariants.hpp"
#include "support/boltzmann_machine_models.hpp"
#include "support/brute_force.hpp"

namespace rbmix {
namespace {

// The sampled one-sweep transitions are compared with exact rows of K by Pearson's χ²: one test per (rule, start
// state), Bonferroni-corrected so that a correct sampler fails the family with probability ≤ kFalseFailureRate.
constexpr double kFalseFailureRate = 1e-6;
constexpr Eigen::Index kChainsPerStart = 20000;
constexpr std::uint64_t kSeed = 20080705;

const std::vector<const char*> kRules = {"gibbs", "flip", "mix:0.3", "unit-modified:0.5"};

std::uint64_t index_of(const Eigen::RowVectorXd& state) {
  std::uint64_t index = 0;
  for (Eigen::Index unit = 0; unit < state.size(); ++unit)
    if (state(unit) == 1.0) index |= std::uint64_t{1} << unit;
  return index;
}

// The operator of updating unit `unit` alone, over all 2ⁿ states (index x = Σ_k x_k 2^k), from the rule's
// probabilities and a local field summed directly (not the sampler's code).
MatrixD unit_update_matrix(const BoltzmannMachine& model, const UnitRule& rule, Eigen::Index unit) {
  const Eigen::Index n = model.size();
  const Eigen::Index states = Eigen::Index{1} << n;
  MatrixD matrix = MatrixD::Zero(states, states);
  for (Eigen::Index from = 0; from < states; ++from) {
    const Eigen::RowVectorXd state = testing::bits_of(static_cast<std::uint64_t>(from), n);
    double field = model.biases(unit);
    for (Eigen::Index other = 0; other < n; ++other) field += model.couplings(unit, other) * state(other);
    const double one = probability_of_one(rule, field, state(unit));
    const Eigen::Index off = from & ~(Eigen::Index{1} << unit);
    matrix(from, off | (Eigen::Index{1} << unit)) += one;
    matrix(from, off) += 1.0 - one;
  }
  return matrix;
}

// K of one sequential sweep (units 0, 1, …, n−1) with its unit operators, π from brute force, and the structural
// pattern as the boolean product of the unit operators' patterns.
verify::ExactOperator exact_sweep(const BoltzmannMachine& model, const char* rule_text) {
  const UnitRule rule = parse_unit_rule(rule_text);
  verify::ExactOperator op;
  op.name = std::string(rule_text) + " sweep";
  const Eigen::Index states = Eigen::Index{1} << model.size();
  op.sweep = MatrixD::Identity(states, states);
  MatrixD reachable = MatrixD::Identity(states, states);
  for (Eigen::Index unit = 0; unit < model.size(); ++unit) {
    op.reversible_layers.push_back(unit_update_matrix(model, rule, unit));
    op.sweep = (op.sweep * op.reversible_layers.back()).eval();
    reachable = (reachable * (op.reversible_layers.back().array() > 0.0).cast<double>().matrix()).eval();
  }
  op.pattern = reachable.array() > 0.0;
  op.stationary = testing::brute_force_probabilities(model);
  // Gibbs, mixtures with a Gibbs share and unit-modified with γ < 1 give every unit update positive entries, so
  // K > 0 (ergodic); no claim for flip-the-state here.
  if (std::string(rule_text) != "flip") op.ergodic = true;
  return op;
}

TEST(BoltzmannMachineSweep, ExactOperatorsKeepPiAndSatisfyDetailedBalancePerUnit) {
  for (const Eigen::Index units : {Eigen::Index{3}, Eigen::Index{6}, Eigen::Index{8}}) {
    const BoltzmannMachine model = testing::random_boltzmann_machine(units, 1.5, 60 + units);
    for (const char* rule : kRules) RBMIX_EXPECT_VERIFIED(verify::check_operator_invariants(exact_sweep(model, rule)));
  }
}

TEST(BoltzmannMachineChains, OneSweepMatchesExactRowsByChiSquared) {
  const Eigen::Index units = 3;
  const BoltzmannMachine model = testing::random_boltzmann_machine(units, 1.5, 77);
  const Eigen::Index states = Eigen::Index{1} << units;
  const double family_size = static_cast<double>(kRules.size() * static_cast<std::size_t>(states));
  double smallest = 1.0;
  for (std::size_t r = 0; r < kRules.size(); ++r) {
    const MatrixD exact = exact_sweep(model, kRules[r]).sweep;
    for (Eigen::Index start = 0; start < states; ++start) {
      const Eigen::RowVectorXd start_state = testing::bits_of(static_cast<std::uint64_t>(start), units);
      BoltzmannMachineChains chains(start_state.replicate(kChainsPerStart, 1), parse_unit_rule(kRules[r]),
                                    kSeed + r * 100 + static_cast<std::uint64_t>(start));
      chains.sweep(model);
      std::vector<std::uint64_t> counts(static_cast<std::size_t>(states), 0);
      for (Eigen::Index chain = 0; chain < kChainsPerStart; ++chain) ++counts[index_of(chains.states().row(chain))];
      smallest = std::min(smallest, verify::chi_squared_p_value(counts, exact.row(start).transpose()));
    }
  }
  EXPECT_GT(smallest, kFalseFailureRate / family_size);
}

TEST(BoltzmannMachineChains, DoNotDependOnTheThreadCount) {
  const BoltzmannMachine model = testing::random_boltzmann_machine(10, 1.0, 5);
  const MatrixD initial = MatrixD::Zero(1024, 10);  // enough work for the threaded path
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  BoltzmannMachineChains one(initial, GibbsRule{}, 3);
  one.sweep(model, 5);
  omp_set_num_threads(4);
  BoltzmannMachineChains four(initial, GibbsRule{}, 3);
  four.sweep(model, 5);
  omp_set_num_threads(threads);
  EXPECT_EQ(one.states(), four.states());
  EXPECT_NE(one.states(), initial);
}

TEST(BoltzmannMachineChains, RefuseBadStatesAndMismatchedModels) {
  EXPECT_THROW(BoltzmannMachineChains(MatrixD::Zero(0, 3), GibbsRule{}, 1), InputError);
  EXPECT_THROW(BoltzmannMachineChains(MatrixD::Constant(2, 3, 0.5), GibbsRule{}, 1), InputError);
  BoltzmannMachineChains chains(MatrixD::Zero(2, 3), GibbsRule{}, 1);
  EXPECT_THROW(chains.sweep(BoltzmannMachine::zeros(4)), InputError);
}

}  // namespace
}  // namespace rbmix
