#pragma once
// The sweep K = K_h K_v applied without forming it (a model of the transition-operator concept in
// transition_operator.hpp). Given the other layer, a layer operator is a product of commuting per-unit 2×2
// transitions, so applying it is a sequence of pair mixes over the two states that differ in one unit:
// O(2^{m+n}·(m+n)) per application, memory O(2^{m+n}). This is what makes m = n = 10 (2^20 joint states) exact.
//
// Order of application: for a function f of the state, (K f)(x) = Σ_z K_h(x, z) Σ_y K_v(z, y) f(y), so
// K f = K_h (K_v f): the visible units' mixes act first. For a distribution p (a row vector), p K = (p K_h) K_v:
// the hidden units' adjoint mixes act first.
#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/transition_operator.hpp"
#include "rbmix/analysis/unit_transition_table.hpp"

namespace rbmix::analysis {

class SweepOperator {
 public:
  using Scalar = double;

  // Any rule the kernel applies: a built-in one, UnitRule, or a user's own.
  template <KernelUnitRule Rule>
  SweepOperator(const Rbm& rbm, const Rule& rule, double inverse_temperature = 1.0)
      : SweepOperator(JointStateSpace(rbm), unit_transition_table(rbm, rule, Layer::hidden, inverse_temperature),
                      unit_transition_table(rbm, rule, Layer::visible, inverse_temperature)) {}
  SweepOperator(const JointStateSpace& space, UnitTransitionTable hidden, UnitTransitionTable visible);

  Eigen::Index rows() const { return static_cast<Eigen::Index>(space_.size()); }
  Eigen::Index cols() const { return rows(); }
  const JointStateSpace& space() const { return space_; }
  const UnitTransitionTable& table(Layer layer) const { return layer == Layer::hidden ? hidden_ : visible_; }

  // y = K x.
  void perform_op(const double* x, double* y) const;
  // y = Kᵀ x.
  void perform_adjoint_op(const double* x, double* y) const;
  // K(x, x) = K_h(x, x) K_v(x, x): every unit keeps its state.
  VectorD diagonal() const;

  // values ← K_layer values (adjoint: values ← K_layerᵀ values), in place.
  void apply_layer(Layer layer, bool adjoint, double* values) const;

 private:
  JointStateSpace space_;
  UnitTransitionTable hidden_;
  UnitTransitionTable visible_;
};

static_assert(TransitionOperator<SweepOperator>);

}  // namespace rbmix::analysis
