#include "rbmix/analysis/transition_matrix.hpp"

#include <cmath>
#include <sstream>

namespace rbmix::analysis {

void require_dense_space(const JointStateSpace& space, const std::string& what, const std::string& alternative) {
  const int units = space.n_visible() + space.n_hidden();
  require(units <= max_dense_joint_units, [&] {
    return what + ": " + std::to_string(units) + " units give 2^" + std::to_string(units) +
           " joint states; dense matrices stop at 2^" + std::to_string(max_dense_joint_units) +
           (alternative.empty() ? "" : " (" + alternative + ")");
  });
}

MatrixD sweep_transition_matrix(const JointStateSpace& space, const UnitTransitionTable& hidden,
                                const UnitTransitionTable& visible) {
  require_dense_space(space, "dense transition matrix", "use the matrix-free sweep operator");
  return assemble_sweep_transition_matrix(
      space, [&](std::uint64_t v, std::uint64_t h, std::uint64_t next_h) { return hidden.layer_probability(v, h, next_h); },
      [&](std::uint64_t h, std::uint64_t v, std::uint64_t next_v) { return visible.layer_probability(h, v, next_v); });
}

MatrixD layer_transition_matrix(const JointStateSpace& space, const UnitTransitionTable& table, Layer layer) {
  require_dense_space(space, "dense transition matrix", "use the matrix-free sweep operator");
  return assemble_layer_transition_matrix(space, layer, [&](std::uint64_t other, std::uint64_t current,
                                                            std::uint64_t next) {
    return table.layer_probability(other, current, next);
  });
}

TransitionPattern sweep_transition_pattern(const JointStateSpace& space, const UnitTransitionTable& hidden,
                                           const UnitTransitionTable& visible) {
  const MatrixD structural = sweep_transition_matrix(space, hidden, visible);
  return (structural.array() > 0.0).matrix();
}

void validate_modification(double lambda, double min_diagonal) {
  std::ostringstream message;
  message << "modified matrix: λ = " << lambda << " must satisfy 0 ≤ λ ≤ min diagonal = " << min_diagonal
          << " and λ < 1 (001 §3)";
  require(std::isfinite(lambda) && lambda >= 0.0 && lambda <= min_diagonal && lambda < 1.0, message.str());
}

MatrixD modified_matrix(const MatrixD& matrix, double lambda) {
  require(matrix.rows() == matrix.cols() && matrix.rows() > 0, "modified matrix: the matrix must be square");
  validate_modification(lambda, matrix.diagonal().minCoeff());
  MatrixD modified = matrix;
  modified.diagonal().array() -= lambda;
  return modified / (1.0 - lambda);
}

}  // namespace rbmix::analysis
