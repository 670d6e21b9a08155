#pragma once
// Exact transition matrices of an RBM whose visible layer holds one softmax group (a classification RBM, 000 §4.2;
// docs/algorithms/pcd-study.md §9.1), over all 2^{m+n} joint states in JointStateSpace order (the group's K units are K
// of the m visible bits). A sweep is
//   K_h(x, y) = [v_y = v_x] Π_i P(h_i → h'_i | v_x)                        (the rule, as for any RBM)
//   K_v(x, y) = [h_y = h_x] [group of v_y = e_k] p(k | h_x) Π_{j ∉ group} P(v_j → v'_j | h_x)
// with p(k | h) ∝ e^{β(b_k + W_{·k}ᵀh)}, and K = K_h K_v, every entry one product as in transition_matrix.hpp.
// The binary units' probabilities are the unit transition tables (the sampler's kernel); the group's are what
// sampling/softmax_group.hpp draws from. States whose group is not one-hot are left by the first K_v and never
// entered again, so π ∝ e^{−βE} on the one-hot states (0 elsewhere) is stationary and each layer satisfies detailed
// balance; the chain is irreducible on the one-hot states only.
#include "rbmix/analysis/state_space.hpp"
#include "rbmix/sampling/softmax_group.hpp"
#include "rbmix/sampling/unit_rule_kernel.hpp"

namespace rbmix::analysis {

// K_h (the rule's, unchanged) or K_v (binary units by the rule, the group from p(y | h)) at inverse temperature β.
// Evaluation::structural gives the structural pattern: the group's factor is 1 for every one-hot block.
MatrixD softmax_group_layer_transition_matrix(const Rbm& rbm, const SoftmaxGroup& group, const UnitRule& rule,
                                              Layer layer, double inverse_temperature = 1.0,
                                              Evaluation evaluation = Evaluation::exact);
// K = K_h K_v.
MatrixD softmax_group_sweep_transition_matrix(const Rbm& rbm, const SoftmaxGroup& group, const UnitRule& rule,
                                              double inverse_temperature = 1.0,
                                              Evaluation evaluation = Evaluation::exact);
// π(x) ∝ e^{−βE(x)} on the joint states whose group is one-hot, 0 on the others.
VectorD softmax_group_stationary_distribution(const Rbm& rbm, const SoftmaxGroup& group,
                                              double inverse_temperature = 1.0);

}  // namespace rbmix::analysis
