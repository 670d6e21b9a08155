#pragma once
// A fully visible, fully connected binary Markov random field (a Boltzmann machine without hidden units), the
// model of 000 §5.5:
//   p(x) = exp(−E(x)) / Z,   −E(x) = ½ xᵀ J x + bᵀ x,   x ∈ {0, 1}ⁿ,
// with J symmetric and zero on the diagonal, so each unordered pair {i, j} has one coupling J_ij = J_ji and
// −E(x) = Σ_{i<j} J_ij x_i x_j + Σ_i b_i x_i. Unit i's total input is h_i = b_i + Σ_j J_ij x_j, and
// p(x_i = 1 | x_−i) = σ(h_i), which is what the unit rules act on (docs/algorithms/operators.md §2).
//
// Gradients are taken with respect to the free parameters: one coupling per pair and one bias per unit. They are
// returned as a symmetric, zero-diagonal matrix (entry ij = entry ji = ∂/∂J_ij) and a vector, so that
// J += η·gradient keeps J symmetric.
#include <string>

#include "rbmix/core/types.hpp"

namespace rbmix {

struct BoltzmannMachine {
  MatrixD couplings;  // J: n × n, symmetric, zero diagonal
  VectorD biases;     // b: n

  Eigen::Index size() const { return biases.size(); }

  // All couplings and biases 0: the uniform distribution over {0, 1}ⁿ.
  static BoltzmannMachine zeros(Eigen::Index units);

  // −E(x) = ½ xᵀ J x + bᵀ x for one state (entries 0 or 1).
  double negative_energy(const VectorD& state) const;

  // Throws InputError naming `name` unless J is n × n with n ≥ 1, exactly symmetric, zero on the diagonal, and
  // every parameter is finite.
  void validate(const std::string& name) const;
};

// Sufficient statistics of a set of binary states: second moments E[x xᵀ] (whose diagonal is E[x]) and means
// E[x]. The log-likelihood gradient is data statistics minus model statistics (000 §5.5).
struct BoltzmannMachineStatistics {
  MatrixD second_moments;  // n × n, symmetric
  VectorD means;           // n
};

// Empirical statistics of the rows of `data` (entries 0/1); throws InputError naming `name` if `data` has no rows
// or an entry other than 0 or 1.
BoltzmannMachineStatistics empirical_statistics(const BinaryMatrix& data, const std::string& name);
// The same for rows held as doubles (the states of sampling chains).
BoltzmannMachineStatistics empirical_statistics(const MatrixD& states);

// Parameter gradient of E_positive[log] − E_negative[log] in the convention above: couplings get
// positive − negative second moments off the diagonal (0 on it), biases positive − negative means.
struct BoltzmannMachineGradient {
  MatrixD couplings;
  VectorD biases;
};
BoltzmannMachineGradient statistics_difference(const BoltzmannMachineStatistics& positive,
                                               const BoltzmannMachineStatistics& negative);

// model ← model + step · gradient.
void apply_step(BoltzmannMachine& model, const BoltzmannMachineGradient& gradient, double step);

}  // namespace rbmix
