#pragma once
// The exact chain of a tempering ladder of tiny rungs (rbmix/sampling/tempering_ladder.hpp), on the product of the
// rungs' joint state spaces: a distribution over (x_0, …, x_K), x_k = (v_k, h_k) in JointStateSpace order of each
// rung, rung 0 the slowest-varying index. One ladder step is LadderChains's, step for step: `swap_interval` sweeps of
// every rung (the dense sweep matrix of the rule; Gibbs at rung 0), the exchanges of the even links, the sweeps
// again, the exchanges of the odd links; an exchange is accepted with exchange_log_ratio of the exact free energies,
// swaps (v, h) for Gibbs and, for any other rule, swaps v and redraws both rungs' h from p_k(h | v), as the sampler
// does. Matrix-free: the sweep applies each rung's matrix along its axis, so ladders of up to max_joint_units units
// in all fit (2^20 states: three rungs of 6 + 1 units, say). The product of the rungs' distributions is stationary
// (docs/algorithms/tempering-along-trajectory.md §3); the tests check that it is, and the coupled ladders' bound
// against total_variation.
#include <vector>

#include "rbmix/analysis/start_distribution.hpp"
#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix::analysis {

class ExactLadder {
 public:
  // Throws InputError when the rungs' units add up to more than max_joint_units or a rung's sweep matrix would be
  // larger than max_dense_joint_units units.
  ExactLadder(const std::vector<Rbm>& rungs, const UnitRule& rule, Eigen::Index swap_interval);

  std::uint64_t size() const { return size_; }
  // Π_k π_k(x_k).
  VectorD product_of_rung_distributions() const;
  // Π_k π₀(x_k) for the start distribution of every rung.
  VectorD start_distribution(const StartDistribution& start) const;
  // The distribution one ladder step later.
  VectorD step(const VectorD& distribution) const;
  // d_TV(μ Pᵗ, Π π_k) for t = 0 … steps.
  VectorD total_variation(const VectorD& start, Eigen::Index steps) const;
  // The top rung's marginal over its joint states.
  VectorD top_marginal(const VectorD& distribution) const;

 private:
  void sweep(VectorD& distribution, std::size_t rung) const;
  void exchange(VectorD& distribution, std::size_t lower) const;
  std::uint64_t stride(std::size_t rung) const { return strides_[rung]; }

  std::vector<Rbm> rungs_;
  UnitRule rule_;
  Eigen::Index swap_interval_;
  std::vector<MatrixD> sweeps_;           // per rung, the dense sweep matrix
  std::vector<VectorD> free_energies_;    // per rung k and visible state v of any rung: F_k(v)
  std::vector<MatrixD> hidden_given_visible_;  // per rung: p_k(h | v), visible states × hidden states
  std::vector<std::uint64_t> strides_;
  std::uint64_t rung_states_ = 0;
  int n_visible_ = 0;
  std::uint64_t size_ = 0;
};

}  // namespace rbmix::analysis
