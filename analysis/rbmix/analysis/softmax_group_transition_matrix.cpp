#include "rbmix/analysis/softmax_group_transition_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/analysis/unit_transition_table.hpp"
#include "rbmix/model/tempering.hpp"

namespace rbmix::analysis {
namespace {

// The group's class in visible state v, or nothing when its block is not one-hot.
std::optional<Eigen::Index> one_hot_class(std::uint64_t visible, const SoftmaxGroup& group) {
  const std::uint64_t block = (visible >> group.first_unit) & ((std::uint64_t{1} << group.size) - 1);
  if (block == 0 || (block & (block - 1)) != 0) return std::nullopt;
  Eigen::Index k = 0;
  while (((block >> k) & 1U) == 0) ++k;
  return k;
}

// p(k | h) for every hidden state (rows) and class (columns); structural: 1 everywhere (the softmax is positive).
MatrixD group_probabilities(const Rbm& rbm, const SoftmaxGroup& group, const JointStateSpace& space,
                            double inverse_temperature, Evaluation evaluation) {
  const auto hidden_states = static_cast<Eigen::Index>(space.hidden_states());
  if (evaluation == Evaluation::structural) return MatrixD::Ones(hidden_states, group.size);
  MatrixD hidden(hidden_states, rbm.n_hidden());
  for (Eigen::Index h = 0; h < hidden_states; ++h)
    hidden.row(h) = JointStateSpace::bits(static_cast<std::uint64_t>(h), space.n_hidden()).transpose();
  MatrixD visible = MatrixD::Zero(hidden_states, rbm.n_visible());
  if (inverse_temperature == 1.0) {
    softmax_group_probabilities(rbm, group, hidden, visible);
  } else {
    Rbm tempered = rbm;
    tempered.weights *= inverse_temperature;
    tempered.visible_bias *= inverse_temperature;
    softmax_group_probabilities(tempered, group, hidden, visible);
  }
  return visible.middleCols(group.first_unit, group.size);
}

bool in_group(const SoftmaxGroup& group, int unit) {
  return unit >= group.first_unit && unit < group.first_unit + group.size;
}

// K_v(v → next_v | h): the binary units by the rule's table, the group from p(k | h).
double visible_step(const UnitTransitionTable& table, const MatrixD& classes, const SoftmaxGroup& group,
                    std::uint64_t h, std::uint64_t v, std::uint64_t next_v) {
  const std::optional<Eigen::Index> next_class = one_hot_class(next_v, group);
  if (!next_class) return 0.0;
  double product = classes(static_cast<Eigen::Index>(h), *next_class);
  for (int unit = 0; unit < table.units(); ++unit) {
    if (in_group(group, unit)) continue;
    product *= table.probability(h, unit, static_cast<int>((v >> unit) & 1U), static_cast<int>((next_v >> unit) & 1U));
  }
  return product;
}

void require_dense(const JointStateSpace& space, const Rbm& rbm, const SoftmaxGroup& group) {
  validate_softmax_group(group, rbm.n_visible());
  require_dense_space(space, "softmax-group transition matrix");
}

}  // namespace

MatrixD softmax_group_layer_transition_matrix(const Rbm& rbm, const SoftmaxGroup& group, const UnitRule& rule,
                                              Layer layer, double inverse_temperature, Evaluation evaluation) {
  const JointStateSpace space(rbm);
  require_dense(space, rbm, group);
  validate_inverse_temperature(inverse_temperature);
  const UnitTransitionTable table = unit_transition_table(rbm, rule, layer, inverse_temperature, evaluation);
  const MatrixD classes = group_probabilities(rbm, group, space, inverse_temperature, evaluation);
  if (layer == Layer::hidden) return layer_transition_matrix(space, table, layer);  // the group is visible
  return assemble_layer_transition_matrix(space, layer, [&](std::uint64_t h, std::uint64_t v, std::uint64_t next_v) {
    return visible_step(table, classes, group, h, v, next_v);
  });
}

MatrixD softmax_group_sweep_transition_matrix(const Rbm& rbm, const SoftmaxGroup& group, const UnitRule& rule,
                                              double inverse_temperature, Evaluation evaluation) {
  const JointStateSpace space(rbm);
  require_dense(space, rbm, group);
  validate_inverse_temperature(inverse_temperature);
  const UnitTransitionTable hidden = unit_transition_table(rbm, rule, Layer::hidden, inverse_temperature, evaluation);
  const UnitTransitionTable visible = unit_transition_table(rbm, rule, Layer::visible, inverse_temperature, evaluation);
  const MatrixD classes = group_probabilities(rbm, group, space, inverse_temperature, evaluation);
  return assemble_sweep_transition_matrix(
      space, [&](std::uint64_t v, std::uint64_t h, std::uint64_t next_h) { return hidden.layer_probability(v, h, next_h); },
      [&](std::uint64_t h, std::uint64_t v, std::uint64_t next_v) {
        return visible_step(visible, classes, group, h, v, next_v);
      });
}

VectorD softmax_group_stationary_distribution(const Rbm& rbm, const SoftmaxGroup& group, double inverse_temperature) {
  const JointStateSpace space(rbm);
  validate_softmax_group(group, rbm.n_visible());
  validate_inverse_temperature(inverse_temperature);
  const VectorD energies = space.energies(rbm);
  double largest = -std::numeric_limits<double>::infinity();
  for (Eigen::Index x = 0; x < energies.size(); ++x)
    if (one_hot_class(space.visible_part(static_cast<std::uint64_t>(x)), group))
      largest = std::max(largest, -inverse_temperature * energies[x]);
  // Exact zeros off the one-hot states (not e^{−∞}, which a vectorised exp may round to a subnormal).
  VectorD weights = VectorD::Zero(energies.size());
  for (Eigen::Index x = 0; x < energies.size(); ++x)
    if (one_hot_class(space.visible_part(static_cast<std::uint64_t>(x)), group))
      weights[x] = std::exp(-inverse_temperature * energies[x] - largest);
  return weights / weights.sum();
}

}  // namespace rbmix::analysis
