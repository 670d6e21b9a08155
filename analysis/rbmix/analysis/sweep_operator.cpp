#include "rbmix/analysis/sweep_operator.hpp"

#include <algorithm>

namespace rbmix::analysis {
namespace {
// Below 2^16 states an application takes well under a millisecond on one core: threads would cost more than
// they save.
constexpr std::uint64_t kParallelStates = std::uint64_t{1} << 16;
}  // namespace

SweepOperator::SweepOperator(const JointStateSpace& space, UnitTransitionTable hidden, UnitTransitionTable visible)
    : space_(space), hidden_(std::move(hidden)), visible_(std::move(visible)) {
  require(hidden_.units() == space.n_hidden() &&
              hidden_.from_zero.rows() == static_cast<Eigen::Index>(space.visible_states()),
          "sweep operator: the hidden table does not fit the state space");
  require(visible_.units() == space.n_visible() &&
              visible_.from_zero.rows() == static_cast<Eigen::Index>(space.hidden_states()),
          "sweep operator: the visible table does not fit the state space");
}

void SweepOperator::apply_layer(Layer layer, bool adjoint, double* values) const {
  const UnitTransitionTable& table = this->table(layer);
  const bool hidden = layer == Layer::hidden;
  const std::uint64_t groups = hidden ? space_.visible_states() : space_.hidden_states();
  const std::uint64_t layer_states = hidden ? space_.hidden_states() : space_.visible_states();
  // Given the other layer's state (a group), the layer operator is a Kronecker product of the units' 2×2
  // transitions, whose probabilities are constant within the group: groups are independent, so one parallel
  // loop over groups needs no synchronisation between units.
#pragma omp parallel for schedule(static) if (space_.size() >= kParallelStates)
  for (std::uint64_t group = 0; group < groups; ++group) {
    const auto row = static_cast<Eigen::Index>(group);
    const auto joint = [&](std::uint64_t layer_state) {
      return hidden ? space_.index(group, layer_state) : space_.index(layer_state, group);
    };
    for (int unit = 0; unit < table.units(); ++unit) {
      const double up = table.from_zero(row, unit);   // P(0 → 1)
      const double stay = table.from_one(row, unit);  // P(1 → 1)
      const std::uint64_t low_mask = (std::uint64_t{1} << unit) - 1;
      for (std::uint64_t pair = 0; pair < layer_states / 2; ++pair) {
        // The two layer states that differ only in this unit: insert a 0 (a 1) at the unit's bit.
        const std::uint64_t state0 = ((pair & ~low_mask) << 1) | (pair & low_mask);
        const std::uint64_t x0 = joint(state0);
        const std::uint64_t x1 = joint(state0 | (std::uint64_t{1} << unit));
        const double value0 = values[x0];
        const double value1 = values[x1];
        if (adjoint) {  // one step of a distribution: mass flows along each transition
          values[x0] = (1.0 - up) * value0 + (1.0 - stay) * value1;
          values[x1] = up * value0 + stay * value1;
        } else {  // expectation of the function after the step
          values[x0] = (1.0 - up) * value0 + up * value1;
          values[x1] = (1.0 - stay) * value0 + stay * value1;
        }
      }
    }
  }
}

void SweepOperator::perform_op(const double* x, double* y) const {
  std::copy(x, x + rows(), y);
  apply_layer(Layer::visible, false, y);
  apply_layer(Layer::hidden, false, y);
}

void SweepOperator::perform_adjoint_op(const double* x, double* y) const {
  std::copy(x, x + rows(), y);
  apply_layer(Layer::hidden, true, y);
  apply_layer(Layer::visible, true, y);
}

VectorD SweepOperator::diagonal() const {
  VectorD diagonal(rows());
#pragma omp parallel for schedule(static) if (space_.size() >= kParallelStates)
  for (Eigen::Index x = 0; x < rows(); ++x) {
    const std::uint64_t v = space_.visible_part(static_cast<std::uint64_t>(x));
    const std::uint64_t h = space_.hidden_part(static_cast<std::uint64_t>(x));
    diagonal[x] = hidden_.layer_probability(v, h, h) * visible_.layer_probability(h, v, v);
  }
  return diagonal;
}

}  // namespace rbmix::analysis
