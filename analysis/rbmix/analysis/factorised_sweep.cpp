#include "rbmix/analysis/factorised_sweep.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <string>

#include "rbmix/analysis/exact_autocorrelation_time.hpp"

namespace rbmix::analysis {
namespace {

// p(to | other) for every pair, as a (2^m × 2^n) matrix indexed (v, h) whichever layer is drawn: the layer
// probability of the table, whose current state does not matter (FactorisedSweep::factorises).
Eigen::MatrixXd conditional_matrix(const JointStateSpace& space, const UnitTransitionTable& table, Layer layer) {
  Eigen::MatrixXd out(space.visible_states(), space.hidden_states());
  for (Eigen::Index h = 0; h < out.cols(); ++h)
    for (Eigen::Index v = 0; v < out.rows(); ++v)
      out(v, h) = layer == Layer::hidden
                      ? table.layer_probability(static_cast<std::uint64_t>(v), 0, static_cast<std::uint64_t>(h))
                      : table.layer_probability(static_cast<std::uint64_t>(h), 0, static_cast<std::uint64_t>(v));
  return out;
}

std::string chain_name(Layer layer) {
  return layer == Layer::hidden ? "through the hidden chain" : "through the visible chain";
}

}  // namespace

bool FactorisedSweep::factorises(const UnitTransitionTable& hidden, const UnitTransitionTable& visible) {
  return hidden.from_zero == hidden.from_one && visible.from_zero == visible.from_one;
}

FactorisedSweep::FactorisedSweep(const JointStateSpace& space, const UnitTransitionTable& hidden,
                                 const UnitTransitionTable& visible)
    : space_(space) {
  require(hidden.units() == space.n_hidden() &&
              hidden.from_zero.rows() == static_cast<Eigen::Index>(space.visible_states()) &&
              visible.units() == space.n_visible() &&
              visible.from_zero.rows() == static_cast<Eigen::Index>(space.hidden_states()),
          "factorised sweep: the tables do not fit the state space");
  require(factorises(hidden, visible),
          "factorised sweep: the rule's next state depends on the current one, so the sweep does not factorise "
          "through a layer");
  hidden_given_visible_ = conditional_matrix(space, hidden, Layer::hidden);
  visible_given_hidden_ = conditional_matrix(space, visible, Layer::visible);
}

MatrixD FactorisedSweep::reduced_chain() const {
  if (reduced_layer() == Layer::visible) return hidden_given_visible_ * visible_given_hidden_.transpose();
  return visible_given_hidden_.transpose() * hidden_given_visible_;
}

SlemResult FactorisedSweep::slem() const {
  SlemResult result;
  result.method = chain_name(reduced_layer());
  // The Gram matrix of M = √(p(h | v) p(v | h)) is the symmetrised reduced chain (factorised_sweep.hpp); only its
  // lower triangle is formed and read.
  const Eigen::MatrixXd root = (hidden_given_visible_.array() * visible_given_hidden_.array()).sqrt().matrix();
  const Eigen::Index size = Eigen::Index{1} << reduced_units();
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(size, size);
  if (reduced_layer() == Layer::visible)
    gram.selfadjointView<Eigen::Lower>().rankUpdate(root);
  else
    gram.selfadjointView<Eigen::Lower>().rankUpdate(root.transpose());
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(gram, Eigen::EigenvaluesOnly);
  require(solver.info() == Eigen::Success, "factorised sweep SLEM: the eigenvalue iteration did not converge");
  const Eigen::VectorXd& eigenvalues = solver.eigenvalues();
  Eigen::Index perron = 0;
  (eigenvalues.array() - 1.0).abs().minCoeff(&perron);
  result.slem = 0.0;
  for (Eigen::Index k = 0; k < eigenvalues.size(); ++k)
    if (k != perron) result.slem = std::max(result.slem, std::abs(eigenvalues[k]));
  return result;
}

std::optional<double> FactorisedSweep::try_integrated_autocorrelation_time(const VectorD& stationary,
                                                                           const VectorD& function) const {
  const auto states = static_cast<Eigen::Index>(space_.size());
  require(stationary.size() == states && function.size() == states,
          "factorised sweep autocorrelation time: π and f must have one entry per joint state");
  const auto visible_states = static_cast<Eigen::Index>(space_.visible_states());
  const auto hidden_states = static_cast<Eigen::Index>(space_.hidden_states());
  const VectorD centred_vector = function.array() - stationary.dot(function);
  const double variance = stationary.dot(centred_vector.cwiseProduct(centred_vector));
  require(variance > 0.0, "factorised sweep autocorrelation time: f is constant under π (zero variance)");
  const Eigen::Map<const Eigen::MatrixXd> joint(stationary.data(), visible_states, hidden_states);
  const Eigen::Map<const Eigen::MatrixXd> centred(centred_vector.data(), visible_states, hidden_states);
  // g(v) = E_π[f̄ | v] and w(h) = Σ_v p(v | h) f̄(v, h) = (B f̄)(h): Σ_{t≥1} ⟨f̄, K^t f̄⟩_π is
  // ⟨g, Z_V Q w⟩ under π_v, or ⟨R g, Z_H w⟩ under π_h (docs/algorithms/operators.md §2.5).
  const VectorD given_visible = (hidden_given_visible_.array() * centred.array()).rowwise().sum();
  const VectorD after_hidden_draw = (visible_given_hidden_.array() * centred.array()).colwise().sum().transpose();
  const MatrixD chain = reduced_chain();
  VectorD left, right, marginal;
  if (reduced_layer() == Layer::visible) {
    left = given_visible;
    right = hidden_given_visible_ * after_hidden_draw;
    marginal = joint.rowwise().sum();
  } else {
    left = visible_given_hidden_.transpose() * given_visible;
    right = after_hidden_draw;
    marginal = joint.colwise().sum().transpose();
  }
  const std::optional<VectorD> fundamental = try_fundamental_solve(chain, marginal, right);
  if (!fundamental) return std::nullopt;
  const double time = 1.0 + 2.0 * marginal.dot(left.cwiseProduct(*fundamental)) / variance;
  if (!std::isfinite(time)) return std::nullopt;
  return time;
}

}  // namespace rbmix::analysis
