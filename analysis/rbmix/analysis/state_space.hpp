#pragma once
// The joint state space of a tiny RBM: all 2^{m+n} states x = (v, h), indexed as x = v + 2^m·h, with v and h
// read as little-endian bit strings (unit k ↦ bit k). Every exact matrix in rbmix_analysis uses this order.
#include <cstdint>

#include "rbmix/model/rbm.hpp"

namespace rbmix::analysis {

class JointStateSpace {
 public:
  JointStateSpace(int n_visible, int n_hidden);
  explicit JointStateSpace(const Rbm& rbm)
      : JointStateSpace(static_cast<int>(rbm.n_visible()), static_cast<int>(rbm.n_hidden())) {}

  int n_visible() const { return n_visible_; }
  int n_hidden() const { return n_hidden_; }
  std::uint64_t size() const { return std::uint64_t{1} << (n_visible_ + n_hidden_); }
  std::uint64_t visible_states() const { return std::uint64_t{1} << n_visible_; }
  std::uint64_t hidden_states() const { return std::uint64_t{1} << n_hidden_; }

  std::uint64_t index(std::uint64_t visible, std::uint64_t hidden) const { return visible | (hidden << n_visible_); }
  std::uint64_t visible_part(std::uint64_t joint) const { return joint & (visible_states() - 1); }
  std::uint64_t hidden_part(std::uint64_t joint) const { return joint >> n_visible_; }

  // Unit k of a layer state as 0.0 or 1.0.
  static double bit(std::uint64_t layer_state, int unit) { return static_cast<double>((layer_state >> unit) & 1U); }
  // The layer state as a 0/1 vector.
  static VectorD bits(std::uint64_t layer_state, int units);

  // Energies E(v, h) of all joint states, in index order.
  VectorD energies(const Rbm& rbm) const;
  // π(x) = e^{−E(x)}/Z for all joint states, by log-sum-exp.
  VectorD stationary_distribution(const Rbm& rbm) const;

 private:
  int n_visible_;
  int n_hidden_;
};

// Largest joint unit count the dense exact tools accept: 2^13 states, a 512 MiB matrix of doubles.
inline constexpr int max_dense_joint_units = 13;
// Largest joint state count any exact tool accepts (matrix-free, vectors of 2^26 doubles = 512 MiB).
inline constexpr int max_joint_units = 26;

}  // namespace rbmix::analysis
