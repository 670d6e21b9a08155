#include "rbmix/sampling/zero_temperature_map.hpp"

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

// layer ← 1[inputs > 0]; says whether any unit changed.
bool threshold_into(const RowVector<double>& inputs, Eigen::Ref<RowVector<double>> layer) {
  bool changed = false;
  for (Eigen::Index unit = 0; unit < inputs.size(); ++unit) {
    const double next = inputs[unit] > 0.0 ? 1.0 : 0.0;
    changed = changed || next != layer[unit];
    layer[unit] = next;
  }
  return changed;
}

}  // namespace

FixedPointSearch descend_to_fixed_point(const Rbm& rbm, Eigen::Ref<RowVector<double>> visible,
                                        Eigen::Ref<RowVector<double>> hidden, Eigen::Index cap) {
  require(cap >= 1, "zero-temperature map: the iteration cap must be at least 1");
  require(visible.size() == rbm.n_visible() && hidden.size() == rbm.n_hidden(),
          "zero-temperature map: the state's layers do not match the model");
  FixedPointSearch search;
  RowVector<double> hidden_inputs(rbm.n_hidden());
  RowVector<double> visible_inputs(rbm.n_visible());
  while (search.iterations < cap) {
    ++search.iterations;
    hidden_inputs.noalias() = visible * rbm.weights.transpose();
    hidden_inputs += rbm.hidden_bias.transpose();
    const bool hidden_changed = threshold_into(hidden_inputs, hidden);
    visible_inputs.noalias() = hidden * rbm.weights;
    visible_inputs += rbm.visible_bias.transpose();
    const bool visible_changed = threshold_into(visible_inputs, visible);
    if (!hidden_changed && !visible_changed) {
      search.reached = true;
      break;
    }
  }
  return search;
}

}  // namespace rbmix
