#include "rbmix/analysis/operator_analysis.hpp"

#include "rbmix/analysis/exact_autocorrelation_time.hpp"
#include "rbmix/analysis/stationarity.hpp"
#include "rbmix/analysis/sweep_operator.hpp"
#include "rbmix/model/tempering.hpp"

namespace rbmix::analysis {
namespace {

constexpr std::string_view kModifiedPrefix = "modified:";

// The energy βE as a function of the state, or nothing when it is constant under π (τ is then undefined).
std::optional<VectorD> varying_energy(const Rbm& rbm, double beta, const VectorD& stationary) {
  const VectorD energy = JointStateSpace(rbm).energies(tempered(rbm, beta));
  const VectorD centred = energy.array() - stationary.dot(energy);
  if (stationary.dot(centred.cwiseProduct(centred)) > 0.0) return energy;
  return std::nullopt;
}

void analyse_dense(const Rbm& rbm, const OperatorSpecification& specification, double beta, const VectorD& stationary,
                   OperatorAnalysis& out) {
  MatrixD sweep = sweep_transition_matrix(rbm, specification.rule, beta);
  TransitionPattern pattern = sweep_transition_pattern(rbm, specification.rule, beta);
  if (specification.modified) {
    const double lambda = sweep.diagonal().minCoeff();
    // Where K(x, x) = λ the modified diagonal is exactly 0: the only structural change.
    for (Eigen::Index x = 0; x < sweep.rows(); ++x)
      if (sweep(x, x) == lambda) pattern(x, x) = false;
    sweep = modified_matrix(sweep, lambda);
    out.lambda = lambda;
  } else {
    out.layer_detailed_balance_error = std::max(
        detailed_balance_error(layer_transition_matrix(rbm, specification.rule, Layer::hidden, beta), stationary),
        detailed_balance_error(layer_transition_matrix(rbm, specification.rule, Layer::visible, beta), stationary));
  }
  const DenseOperator op(sweep);
  out.representation = "dense";
  out.stationarity_residual = stationarity_residual(op, stationary);
  out.row_sum_error = row_sum_error(op);
  out.ergodicity = analyse_ergodicity(PatternGraph(pattern));
  out.slem = dense_slem(sweep);
  if (const auto energy = varying_energy(rbm, beta, stationary); energy && out.ergodicity.ergodic()) {
    out.energy_autocorrelation_time = try_exact_integrated_autocorrelation_time(sweep, stationary, *energy);
    if (!out.energy_autocorrelation_time)
      out.energy_autocorrelation_time_unavailable =
          "numerically non-ergodic: I − K + 1πᵀ is singular in double precision (probabilities round to 0 or 1)";
  }
}

void analyse_matrix_free(const Rbm& rbm, const OperatorSpecification& specification, double beta,
                         const VectorD& stationary, OperatorAnalysis& out) {
  require(!specification.modified, "operator '" + to_string(specification) +
                                       "': modified matrices are analysed densely, "
                                       "for at most 2^" +
                                       std::to_string(max_dense_analysis_units) + " joint states");
  const SweepOperator op(rbm, specification.rule, beta);
  out.representation = "matrix-free";
  out.stationarity_residual = stationarity_residual(op, stationary);
  out.row_sum_error = row_sum_error(op);
  out.ergodicity = analyse_ergodicity(StagedSweepGraph(rbm, specification.rule, beta));
  out.slem = matrix_free_slem(op, stationary);
  if (const auto energy = varying_energy(rbm, beta, stationary); energy && out.ergodicity.ergodic()) {
    const AutocorrelationSeriesResult series = integrated_autocorrelation_time_by_series(op, stationary, *energy);
    if (series.converged)
      out.energy_autocorrelation_time = series.autocorrelation_time;
    else
      out.energy_autocorrelation_time_unavailable =
          "the lag series did not converge in " + std::to_string(series.terms - 1) + " terms";
  }
}

}  // namespace

OperatorSpecification parse_operator_specification(std::string_view text) {
  if (text.starts_with(kModifiedPrefix)) return {parse_unit_rule(text.substr(kModifiedPrefix.size())), true};
  return {parse_unit_rule(text), false};
}

std::string to_string(const OperatorSpecification& specification) {
  return (specification.modified ? std::string(kModifiedPrefix) : std::string()) + rbmix::to_string(specification.rule);
}

OperatorAnalysis analyse_operator(const Rbm& rbm, const OperatorSpecification& specification,
                                  double inverse_temperature) {
  rbm.validate();
  validate_inverse_temperature(inverse_temperature);
  const JointStateSpace space(rbm);
  const VectorD stationary = space.stationary_distribution(tempered(rbm, inverse_temperature));
  OperatorAnalysis out;
  out.name = to_string(specification);
  out.states = space.size();
  if (space.n_visible() + space.n_hidden() <= max_dense_analysis_units)
    analyse_dense(rbm, specification, inverse_temperature, stationary, out);
  else
    analyse_matrix_free(rbm, specification, inverse_temperature, stationary, out);
  // |μ| = 1 is not simple for a reducible or periodic chain (docs/algorithms.md §2).
  if (!out.ergodicity.ergodic()) out.slem.slem = 1.0;
  return out;
}

}  // namespace rbmix::analysis
