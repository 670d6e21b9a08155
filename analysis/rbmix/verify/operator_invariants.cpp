#include "rbmix/verify/operator_invariants.hpp"

#include <sstream>

#include "rbmix/analysis/ergodicity.hpp"
#include "rbmix/analysis/operator_analysis.hpp"
#include "rbmix/analysis/stationarity.hpp"

namespace rbmix::verify {
namespace {

// Rows hold at most 2^6 products of at most 6 rounded probabilities, and π is normalised by log-sum-exp:
// rounding stays near 64·6·2^{-53} ≈ 4e-14 per entry; 1e-12 leaves margin and still catches any wrong formula.
constexpr double kStochasticTolerance = 1e-12;
// Detailed-balance flows π(x)K(x, y) are at most 1 and are products of the same rounded factors.
constexpr double kDetailedBalanceTolerance = 1e-14;

}  // namespace

ExactOperator modified_operator(const ExactOperator& base, double lambda_share) {
  const double lambda = lambda_share * base.sweep.diagonal().minCoeff();
  ExactOperator op;
  std::ostringstream name;
  name << "modified (λ = " << lambda << ") " << base.name;
  op.name = name.str();
  op.sweep = analysis::modified_matrix(base.sweep, lambda);
  op.pattern = base.pattern;
  // (A(x, x) − λ) is exactly 0 where A(x, x) = λ: the only diagonal entries the modification removes.
  for (Eigen::Index x = 0; x < op.pattern.rows(); ++x)
    if (base.sweep(x, x) == lambda) op.pattern(x, x) = false;
  op.stationary = base.stationary;
  return op;
}

VerificationResult check_operator_invariants(const ExactOperator& op) {
  const analysis::DenseOperator dense(op.sweep);
  const auto failure = [&](const std::string& what) { return VerificationResult::fail(op.name + ": " + what); };
  if (op.sweep.minCoeff() < 0.0 || op.sweep.maxCoeff() > 1.0 + kStochasticTolerance)
    return failure("an entry lies outside [0, 1]");
  if (const double error = analysis::row_sum_error(dense); !(error < kStochasticTolerance))
    return failure("rows do not sum to 1 (max error " + std::to_string(error) + ")");
  if (const double residual = analysis::stationarity_residual(dense, op.stationary); !(residual < kStochasticTolerance))
    return failure("π is not stationary (‖πK − π‖₁ = " + std::to_string(residual) + ")");
  for (std::size_t k = 0; k < op.reversible_layers.size(); ++k)
    if (const double error = analysis::detailed_balance_error(op.reversible_layers[k], op.stationary);
        !(error < kDetailedBalanceTolerance))
      return failure("layer operator " + std::to_string(k) + " violates detailed balance by " + std::to_string(error));
  for (Eigen::Index x = 0; x < op.sweep.rows(); ++x)
    for (Eigen::Index y = 0; y < op.sweep.cols(); ++y)
      if (op.pattern(x, y) != (op.sweep(x, y) > 0.0))
        return failure("entry (" + std::to_string(x) + ", " + std::to_string(y) +
                       ") = " + std::to_string(op.sweep(x, y)) + " disagrees with the structural pattern");
  if (op.ergodic) {
    const analysis::ErgodicityReport report = analysis::analyse_ergodicity(analysis::PatternGraph(op.pattern));
    if (report.ergodic() != *op.ergodic)
      return failure("ergodicity claimed " + std::string(*op.ergodic ? "true" : "false") + " but found " +
                     std::to_string(report.communicating_classes) + " classes, period " +
                     std::to_string(report.period));
  }
  return VerificationResult::pass(op.name + ": every invariant holds");
}

}  // namespace rbmix::verify
