#pragma once
// What every transition operator promises (docs/algorithms/operators.md §2), checked on the exact operator of a tiny
// RBM: entries are probabilities, rows sum to 1, π ∝ e^{−βE} is stationary, each layer operator satisfies detailed
// balance where claimed, the rule's structural zeros are exact zeros (and structurally possible moves have positive
// probability), and the chain is ergodic where claimed. The project runs it for G, T, T^α, the naive flip, tempered
// variants and modified matrices; a user runs it for their own rule (any ConcreteUnitRule) over random and tied tiny
// RBMs (generators.hpp).
#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/model/tempering.hpp"
#include "rbmix/verify/verification_result.hpp"

namespace rbmix::verify {

struct ExactOperator {
  std::string name;
  MatrixD sweep;                           // K
  std::vector<MatrixD> reversible_layers;  // layer operators whose detailed balance is claimed
  analysis::TransitionPattern pattern;     // structural nonzero pattern of K
  VectorD stationary;                      // π
  std::optional<bool> ergodic;             // claimed ergodicity; nullopt: no claim
};

// A rule as written on the command line: its name, and ":parameter" for a parameterised rule.
template <ConcreteUnitRule Rule>
std::string rule_label(const Rule& rule) {
  if constexpr (ParameterisedUnitRule<Rule>)
    return std::string(Rule::name) + ":" + rule.parameter_text();
  else
    return std::string(Rule::name);
}

// The ergodicity `rule` claims (unit_rule.hpp's claims_ergodicity): true, or nullopt for no claim.
template <ConcreteUnitRule Rule>
std::optional<bool> claimed_ergodicity(const Rule& rule) {
  return rule.claims_ergodicity() ? std::optional<bool>(true) : std::nullopt;
}

// K = K_h K_v of `rule` at inverse temperature β with its layers, pattern and π ∝ e^{−βE}. Detailed balance of
// both layer operators is claimed where the rule claims per-unit detailed balance (per-unit balance with
// conditionally independent units gives it for the layer); `ergodic` is the claimed ergodicity (nullopt: none).
template <ConcreteUnitRule Rule>
ExactOperator exact_operator(const Rbm& rbm, const Rule& rule, double inverse_temperature,
                             std::optional<bool> ergodic) {
  ExactOperator op;
  std::ostringstream name;
  name << rule_label(rule) << " at β = " << inverse_temperature;
  op.name = name.str();
  op.sweep = analysis::sweep_transition_matrix(rbm, rule, inverse_temperature);
  if (Rule::per_unit_detailed_balance)
    op.reversible_layers = {analysis::layer_transition_matrix(rbm, rule, Layer::hidden, inverse_temperature),
                            analysis::layer_transition_matrix(rbm, rule, Layer::visible, inverse_temperature)};
  op.pattern = analysis::sweep_transition_pattern(rbm, rule, inverse_temperature);
  op.stationary = analysis::JointStateSpace(rbm).stationary_distribution(tempered(rbm, inverse_temperature));
  op.ergodic = ergodic;
  return op;
}

// The same with the ergodicity the rule itself claims.
template <ConcreteUnitRule Rule>
ExactOperator exact_operator(const Rbm& rbm, const Rule& rule, double inverse_temperature = 1.0) {
  return exact_operator(rbm, rule, inverse_temperature, claimed_ergodicity(rule));
}

// The same for a built-in rule.
inline ExactOperator exact_operator(const Rbm& rbm, const UnitRule& rule, double inverse_temperature = 1.0) {
  return std::visit([&](const auto& concrete) { return exact_operator(rbm, concrete, inverse_temperature); }, rule);
}

// A' = (A − λI)/(1 − λ) with λ = `lambda_share` · min_x A(x, x) (001 §3): π and the pattern off the diagonal are
// kept; no reversibility or ergodicity is claimed.
ExactOperator modified_operator(const ExactOperator& base, double lambda_share);

// Every invariant of `op`; the message names the operator and the first invariant that fails.
VerificationResult check_operator_invariants(const ExactOperator& op);

// The invariants of `rule`'s exact operator on `rbm` (a tiny RBM: 2^{m+n} joint states, dense).
// `ergodic`: the claimed ergodicity; by default the rule's own claim (claims_ergodicity).
template <ConcreteUnitRule Rule>
VerificationResult check_operator_invariants(const Rbm& rbm, const Rule& rule, double inverse_temperature = 1.0,
                                             std::optional<std::optional<bool>> ergodic = std::nullopt) {
  VerificationResult result = check_operator_invariants(
      exact_operator(rbm, rule, inverse_temperature, ergodic ? *ergodic : claimed_ergodicity(rule)));
  if (!result) {
    const Eigen::IOFormat row(Eigen::FullPrecision, Eigen::DontAlignCols, ", ", ", ");
    const Eigen::IOFormat matrix(Eigen::FullPrecision, Eigen::DontAlignCols, ", ", "; ");
    std::ostringstream on;
    on << " (on the RBM with W = [" << rbm.weights.format(matrix) << "], b = [" << rbm.visible_bias.format(row)
       << "], c = [" << rbm.hidden_bias.format(row) << "])";
    result.message += on.str();
  }
  return result;
}

}  // namespace rbmix::verify
