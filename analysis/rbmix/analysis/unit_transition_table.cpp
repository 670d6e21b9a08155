#include "rbmix/analysis/unit_transition_table.hpp"

#include <cmath>

#include "rbmix/sampling/batched_chains.hpp"

namespace rbmix::analysis {
namespace {

// Every state of a layer with `units` units as rows of 0/1, in index order.
MatrixD all_layer_states(int units) {
  MatrixD states(Eigen::Index{1} << units, units);
  for (Eigen::Index k = 0; k < states.rows(); ++k)
    states.row(k) = JointStateSpace::bits(static_cast<std::uint64_t>(k), units).transpose();
  return states;
}

// Rules are rational functions of e^{−|x|} that are either constant 0 or 1 or strictly inside (0, 1) on the
// whole interval e^{−|x|} ∈ (0, 1); evaluating at one interior point therefore reveals the structural pattern.
constexpr double kInteriorDecay = 0.5;

void structural_probabilities(const UnitRule& rule, const MatrixD& inputs, const MatrixD& state,
                              MatrixD& probabilities) {
  probabilities.resize(inputs.rows(), inputs.cols());
  std::visit(
      [&](const auto& concrete) {
        for (Eigen::Index row = 0; row < inputs.rows(); ++row)
          for (Eigen::Index unit = 0; unit < inputs.cols(); ++unit) {
            const double x = inputs(row, unit);
            probabilities(row, unit) =
                concrete.probability_of_one(x, state(row, unit), x == 0.0 ? 1.0 : kInteriorDecay);
          }
      },
      rule);
}

}  // namespace

void validate_inverse_temperature(double inverse_temperature) {
  require(std::isfinite(inverse_temperature) && inverse_temperature >= 0.0,
          "inverse temperature β = " + std::to_string(inverse_temperature) + ": must be finite and ≥ 0");
}

double UnitTransitionTable::layer_probability(std::uint64_t other_layer_state, std::uint64_t from,
                                              std::uint64_t to) const {
  double product = 1.0;
  for (int unit = 0; unit < units(); ++unit)
    product *= probability(other_layer_state, unit, static_cast<int>((from >> unit) & 1U),
                           static_cast<int>((to >> unit) & 1U));
  return product;
}

UnitTransitionTable unit_transition_table(const Rbm& rbm, const UnitRule& rule, Layer layer, double inverse_temperature,
                                          Evaluation evaluation) {
  rbm.validate();
  validate_inverse_temperature(inverse_temperature);
  // The same input arithmetic as BatchedChains: bias + weighted input, then times β unless β = 1.
  MatrixD inputs = layer == Layer::hidden ? rbm.hidden_inputs(all_layer_states(static_cast<int>(rbm.n_visible())))
                                          : rbm.visible_inputs(all_layer_states(static_cast<int>(rbm.n_hidden())));
  if (inverse_temperature != 1.0) inputs *= inverse_temperature;
  const MatrixD zeros = MatrixD::Zero(inputs.rows(), inputs.cols());
  const MatrixD ones = MatrixD::Ones(inputs.rows(), inputs.cols());
  UnitTransitionTable table;
  if (evaluation == Evaluation::exact) {
    layer_probabilities(rule, inputs, zeros, table.from_zero);
    layer_probabilities(rule, inputs, ones, table.from_one);
  } else {
    structural_probabilities(rule, inputs, zeros, table.from_zero);
    structural_probabilities(rule, inputs, ones, table.from_one);
  }
  return table;
}

}  // namespace rbmix::analysis
