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

MatrixD every_layer_input(const Rbm& rbm, Layer layer, double inverse_temperature) {
  rbm.validate();
  validate_inverse_temperature(inverse_temperature);
  const int other_units = static_cast<int>(layer == Layer::hidden ? rbm.n_visible() : rbm.n_hidden());
  MatrixD inputs;
  rbm.layer_inputs(layer, all_layer_states(other_units), inputs, inverse_temperature);
  return inputs;
}

template UnitTransitionTable unit_transition_table(const Rbm&, const UnitRule&, Layer, double, Evaluation);

}  // namespace rbmix::analysis
