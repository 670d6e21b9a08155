#include "rbmix/analysis/transition_matrix.hpp"

#include <cmath>
#include <sstream>

namespace rbmix::analysis {
namespace {

// Below 2^10 states a dense sweep takes about a millisecond on one core: threads would cost more than they save.
constexpr Eigen::Index kParallelStates = Eigen::Index{1} << 10;

void require_dense(const JointStateSpace& space) {
  const int units = space.n_visible() + space.n_hidden();
  require(units <= max_dense_joint_units, "dense transition matrix: " + std::to_string(units) + " units give 2^" +
                                              std::to_string(units) + " joint states; dense matrices stop at 2^" +
                                              std::to_string(max_dense_joint_units) +
                                              " (use the matrix-free sweep operator)");
}

}  // namespace

MatrixD sweep_transition_matrix(const JointStateSpace& space, const UnitTransitionTable& hidden,
                                const UnitTransitionTable& visible) {
  require_dense(space);
  const auto size = static_cast<Eigen::Index>(space.size());
  MatrixD sweep(size, size);
#pragma omp parallel for schedule(static) if (size >= kParallelStates)
  for (Eigen::Index x = 0; x < size; ++x) {
    const std::uint64_t v = space.visible_part(static_cast<std::uint64_t>(x));
    const std::uint64_t h = space.hidden_part(static_cast<std::uint64_t>(x));
    for (std::uint64_t next_h = 0; next_h < space.hidden_states(); ++next_h) {
      const double hidden_step = hidden.layer_probability(v, h, next_h);
      for (std::uint64_t next_v = 0; next_v < space.visible_states(); ++next_v)
        sweep(x, static_cast<Eigen::Index>(space.index(next_v, next_h))) =
            hidden_step * visible.layer_probability(next_h, v, next_v);
    }
  }
  return sweep;
}

MatrixD layer_transition_matrix(const JointStateSpace& space, const UnitTransitionTable& table, Layer layer) {
  require_dense(space);
  const auto size = static_cast<Eigen::Index>(space.size());
  MatrixD matrix = MatrixD::Zero(size, size);
  for (std::uint64_t v = 0; v < space.visible_states(); ++v)
    for (std::uint64_t h = 0; h < space.hidden_states(); ++h) {
      const auto from = static_cast<Eigen::Index>(space.index(v, h));
      if (layer == Layer::hidden) {
        for (std::uint64_t next_h = 0; next_h < space.hidden_states(); ++next_h)
          matrix(from, static_cast<Eigen::Index>(space.index(v, next_h))) = table.layer_probability(v, h, next_h);
      } else {
        for (std::uint64_t next_v = 0; next_v < space.visible_states(); ++next_v)
          matrix(from, static_cast<Eigen::Index>(space.index(next_v, h))) = table.layer_probability(h, v, next_v);
      }
    }
  return matrix;
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
