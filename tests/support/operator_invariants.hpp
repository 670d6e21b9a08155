#pragma once
// One reusable check of what every transition operator promises (docs/algorithms.md §2), run for G, T,
// T^α, the naive flip, tempered variants and modified matrices: entries are probabilities, rows sum to 1,
// π ∝ e^{−βE} is stationary, each layer operator satisfies detailed balance where claimed, the rule's structural
// zeros are exact zeros (and structurally possible moves have positive probability), and the chain is ergodic
// where claimed.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "rbmix/analysis/transition_matrix.hpp"

namespace rbmix::testing {

struct ExactOperator {
  std::string name;
  MatrixD sweep;                           // K
  std::vector<MatrixD> reversible_layers;  // layer operators whose detailed balance is claimed
  analysis::TransitionPattern pattern;     // structural nonzero pattern of K
  VectorD stationary;                      // π
  std::optional<bool> ergodic;             // claimed ergodicity; nullopt: no claim
};

// K = K_h K_v of `rule` at inverse temperature β with its layers, pattern and π ∝ e^{−βE}. Ergodicity is claimed
// for every rule but the naive flip (003 Thms 1–2 for T; G and T^α with α < 1 have positive entries).
ExactOperator exact_operator(const Rbm& rbm, const UnitRule& rule, double inverse_temperature = 1.0);
// A' = (A − λI)/(1 − λ) with λ = `lambda_share` · min_x A(x, x) (001 §3): π and the pattern off the diagonal are
// kept; no reversibility or ergodicity is claimed.
ExactOperator modified_operator(const ExactOperator& base, double lambda_share);

::testing::AssertionResult satisfies_operator_invariants(const ExactOperator& op);

// The operators every invariant test runs: G, T, T^0.3, T^0.7, naive, G and T at β = 0.5, modified G and T.
std::vector<ExactOperator> all_exact_operators(const Rbm& rbm);

}  // namespace rbmix::testing
