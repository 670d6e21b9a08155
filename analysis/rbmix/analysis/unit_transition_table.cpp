#include "rbmix/analysis/unit_transition_table.hpp"

#include "rbmix/model/tempering.hpp"

namespace rbmix::analysis {
namespace {

// Every state of a layer with `units` units as rows of 0/1, in index order.
MatrixD all_layer_states(int units) {
  MatrixD states(Eigen::Index{1} << units, units);
  for (Eigen::Index k = 0; k < states.rows(); ++k)
    states.row(k) = JointStateSpace::bits(static_cast<std::uint64_t>(k), units).transpose();
  return states;
}

}  // namespace

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
  // The inputs and the rule's evaluation are those of BatchedChains, to the bit.
  const int other_units = static_cast<int>(layer == Layer::hidden ? rbm.n_visible() : rbm.n_hidden());
  MatrixD inputs;
  rbm.layer_inputs(layer, all_layer_states(other_units), inputs, inverse_temperature);
  const MatrixD zeros = MatrixD::Zero(inputs.rows(), inputs.cols());
  const MatrixD ones = MatrixD::Ones(inputs.rows(), inputs.cols());
  UnitTransitionTable table;
  layer_probabilities(rule, evaluation, inputs, zeros, table.from_zero);
  layer_probabilities(rule, evaluation, inputs, ones, table.from_one);
  return table;
}

}  // namespace rbmix::analysis
