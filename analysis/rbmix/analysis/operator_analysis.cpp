#include "rbmix/analysis/operator_analysis.hpp"

#include <algorithm>

#include "rbmix/analysis/exact_autocorrelation_time.hpp"
#include "rbmix/analysis/factorised_sweep.hpp"
#include "rbmix/analysis/stationarity.hpp"
#include "rbmix/analysis/sweep_operator.hpp"
#include "rbmix/model/tempering.hpp"

namespace rbmix::analysis {
namespace {

constexpr std::string_view kModifiedPrefix = "modified:";

// The stages analyse_operator reports, in order (analysis_stages of them).
enum Stage : int { stationary_stage, checks_stage, ergodicity_stage, slem_stage, autocorrelation_stage };
static_assert(autocorrelation_stage + 1 == analysis_stages);

void report(const AnalysisProgress& progress, Stage stage, const std::string& note) {
  if (progress) progress(stage, note);
}

// The operator with every application (a pass over all joint states) reported as progress of `stage`: the
// matrix-free SLEM and series run for an iteration count nobody knows in advance, so the line counts passes.
template <typename Operator>
class ReportingOperator {
 public:
  using Scalar = double;
  ReportingOperator(const Operator& base, const AnalysisProgress& progress, Stage stage, std::string what)
      : base_(base), progress_(progress), stage_(stage), what_(std::move(what)) {}
  Eigen::Index rows() const { return base_.rows(); }
  Eigen::Index cols() const { return base_.cols(); }
  void perform_op(const double* x, double* y) const {
    base_.perform_op(x, y);
    count_pass();
  }
  void perform_adjoint_op(const double* x, double* y) const {
    base_.perform_adjoint_op(x, y);
    count_pass();
  }
  VectorD diagonal() const { return base_.diagonal(); }

 private:
  void count_pass() const {
    ++passes_;
    if (progress_) progress_(stage_, what_ + ", " + std::to_string(passes_) + " passes over the states");
  }

  const Operator& base_;
  const AnalysisProgress& progress_;
  Stage stage_;
  std::string what_;
  mutable Eigen::Index passes_ = 0;
};

// The energy βE as a function of the state, or nothing when it is constant under π (τ is then undefined).
std::optional<VectorD> varying_energy(const Rbm& rbm, double beta, const VectorD& stationary) {
  const VectorD energy = JointStateSpace(rbm).energies(tempered(rbm, beta));
  const VectorD centred = energy.array() - stationary.dot(energy);
  if (stationary.dot(centred.cwiseProduct(centred)) > 0.0) return energy;
  return std::nullopt;
}

void analyse_dense(const Rbm& rbm, const OperatorSpecification& specification, double beta, const VectorD& stationary,
                   OperatorAnalysis& out, const AnalysisProgress& progress) {
  report(progress, checks_stage, "dense transition matrix, stationarity and row sums");
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
  report(progress, ergodicity_stage, "ergodicity");
  out.ergodicity = analyse_ergodicity(PatternGraph(pattern));
  report(progress, slem_stage, "SLEM (dense eigenvalues)");
  out.slem = dense_slem(sweep);
  report(progress, autocorrelation_stage, "energy autocorrelation time");
  if (const auto energy = varying_energy(rbm, beta, stationary); energy && out.ergodicity.ergodic()) {
    out.energy_autocorrelation_time = try_exact_integrated_autocorrelation_time(sweep, stationary, *energy);
    if (!out.energy_autocorrelation_time)
      out.energy_autocorrelation_time_unavailable =
          "numerically non-ergodic: I − K + 1πᵀ is singular in double precision (probabilities round to 0 or 1)";
  }
}

// SLEM and τ of a factorising sweep through its reduced chain (factorised_sweep.hpp).
void analyse_factorised(const Rbm& rbm, const SweepOperator& op, double beta, const VectorD& stationary,
                        OperatorAnalysis& out, const AnalysisProgress& progress) {
  const FactorisedSweep factorised(op.space(), op.table(Layer::hidden), op.table(Layer::visible));
  const std::string chain = std::string(factorised.reduced_layer() == Layer::hidden ? "hidden" : "visible") +
                            " chain of 2^" + std::to_string(factorised.reduced_units()) + " states";
  report(progress, slem_stage, "SLEM (dense, " + chain + ")");
  out.slem = factorised.slem();
  report(progress, autocorrelation_stage, "energy autocorrelation time (" + chain + ")");
  if (const auto energy = varying_energy(rbm, beta, stationary); energy && out.ergodicity.ergodic()) {
    out.energy_autocorrelation_time = factorised.try_integrated_autocorrelation_time(stationary, *energy);
    if (!out.energy_autocorrelation_time)
      out.energy_autocorrelation_time_unavailable =
          "numerically non-ergodic: I − K + 1πᵀ of the chain on the smaller layer is singular in double "
          "precision (probabilities round to 0 or 1)";
  }
}

void analyse_matrix_free(const Rbm& rbm, const OperatorSpecification& specification, double beta,
                         const VectorD& stationary, OperatorAnalysis& out, const AnalysisProgress& progress) {
  require(!specification.modified, "operator '" + to_string(specification) +
                                       "': modified matrices are analysed densely, "
                                       "for at most 2^" +
                                       std::to_string(max_dense_analysis_units) + " joint states");
  report(progress, checks_stage, "matrix-free sweep, stationarity and row sums");
  const SweepOperator op(rbm, specification.rule, beta);
  out.representation = "matrix-free";
  out.stationarity_residual = stationarity_residual(op, stationary);
  out.row_sum_error = row_sum_error(op);
  report(progress, ergodicity_stage, "ergodicity (structural tables)");
  out.ergodicity = analyse_sweep_ergodicity(
      op.space(), unit_transition_table(rbm, specification.rule, Layer::hidden, beta, Evaluation::structural),
      unit_transition_table(rbm, specification.rule, Layer::visible, beta, Evaluation::structural));
  // A sweep that factorises through a layer (Gibbs) has the SLEM and τ of a chain on the smaller layer
  // (docs/algorithms/operators.md §2.5): dense on 2^min(m, n) states instead of Arnoldi and a lag series on 2^{m+n}.
  if (std::min(op.space().n_visible(), op.space().n_hidden()) <= max_reduced_chain_units &&
      FactorisedSweep::factorises(op.table(Layer::hidden), op.table(Layer::visible))) {
    analyse_factorised(rbm, op, beta, stationary, out, progress);
    return;
  }
  report(progress, slem_stage, "SLEM (Arnoldi)");
  out.slem = matrix_free_slem(ReportingOperator(op, progress, slem_stage, "SLEM (Arnoldi)"), stationary);
  report(progress, autocorrelation_stage, "energy autocorrelation time (lag series)");
  if (const auto energy = varying_energy(rbm, beta, stationary); energy && out.ergodicity.ergodic()) {
    const AutocorrelationSeriesResult series = integrated_autocorrelation_time_by_series(
        ReportingOperator(op, progress, autocorrelation_stage, "energy autocorrelation time (lag series)"),
        stationary, *energy);
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
                                  double inverse_temperature, const AnalysisProgress& progress) {
  rbm.validate();
  validate_inverse_temperature(inverse_temperature);
  report(progress, stationary_stage, "stationary distribution");
  const JointStateSpace space(rbm);
  const VectorD stationary = space.stationary_distribution(tempered(rbm, inverse_temperature));
  OperatorAnalysis out;
  out.name = to_string(specification);
  out.states = space.size();
  if (space.n_visible() + space.n_hidden() <= max_dense_analysis_units)
    analyse_dense(rbm, specification, inverse_temperature, stationary, out, progress);
  else
    analyse_matrix_free(rbm, specification, inverse_temperature, stationary, out, progress);
  // |μ| = 1 is not simple for a reducible or periodic chain (docs/algorithms/operators.md §2).
  if (!out.ergodicity.ergodic()) out.slem.slem = 1.0;
  return out;
}

}  // namespace rbmix::analysis
