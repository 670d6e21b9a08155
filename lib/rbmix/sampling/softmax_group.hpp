#pragma once
// A softmax group of visible units (000 §4.2; docs/algorithms/pcd-study.md §9.1): K visible units first … first + K − 1
// of which exactly one is on, the label of a classification RBM. Given h the group is one K-way unit with
//   p(y = k | h) ∝ e^{β(b_k + W_{·k}ᵀh)},
// drawn exactly (one uniform per chain, inverse CDF over the K classes from chain b's own stream), so whatever
// unit rule drives the binary units, the group's update is a Gibbs update of the whole group, which keeps π.
// The binary visible units are conditionally independent of the group given h, so a sweep of BatchedChains
// followed by a draw of the group is the classification RBM's sweep: the rule's draw for the group's units is
// overwritten, and the next hidden update sees a one-hot group again.
#include <vector>

#include "rbmix/model/rbm.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/sampling/batched_chains.hpp"

namespace rbmix {

struct SoftmaxGroup {
  Eigen::Index first_unit = 0;  // index of the group's first visible unit
  Eigen::Index size = 0;        // K
};

// Throws InputError unless the group has at least 2 units and lies within the model's `n_visible` visible units.
void validate_softmax_group(const SoftmaxGroup& group, Eigen::Index n_visible);

// p(y = k | h) for every row of `hidden`, written into the group's columns of `visible` (the mean-field visible
// layer of MF-CD, 000 §2.2, where the group's mean is its softmax, not K independent logistics).
template <typename Scalar>
void softmax_group_probabilities(const BasicRbm<Scalar>& rbm, const SoftmaxGroup& group, const Matrix<Scalar>& hidden,
                                 Matrix<Scalar>& visible);

// Draws the group of every chain from p(y | h) at inverse temperature β: row b of `visible` gets a one-hot block,
// drawn from streams[b].
template <typename Scalar>
void sample_softmax_group(const BasicRbm<Scalar>& rbm, const SoftmaxGroup& group, const Matrix<Scalar>& hidden,
                          Matrix<Scalar>& visible, std::vector<RandomStream>& streams,
                          Scalar inverse_temperature = Scalar(1));

// One sweep of a model with a softmax group: h ← rule(β(c + W v), h), the binary visible units ← rule(β(b + Wᵀh),
// v), the group ~ p(y | h) at β.
template <typename Scalar>
void sweep_with_softmax_group(BatchedChains<Scalar>& chains, const BasicRbm<Scalar>& rbm, const UnitRule& rule,
                              const SoftmaxGroup& group, Scalar inverse_temperature = Scalar(1));

}  // namespace rbmix
