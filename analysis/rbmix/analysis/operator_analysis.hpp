#pragma once
// Everything rbmix can say exactly about one transition operator of one RBM (docs/algorithms/operators.md §2):
// stationarity residual, row-sum error, detailed balance of the layers, irreducibility and period, SLEM and the exact
// autocorrelation time of the energy. Dense matrices for up to 2^max_dense_analysis_units joint states, the
// matrix-free sweep and staged graph beyond (up to 2^max_joint_units); beyond the dense limit a sweep that
// factorises through a layer (Gibbs) takes its SLEM and τ from the dense chain on the smaller layer
// (factorised_sweep.hpp), and ergodicity needs no graph where every unit transition is structurally possible.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "rbmix/analysis/ergodicity.hpp"
#include "rbmix/analysis/slem.hpp"

namespace rbmix::analysis {

// 2^10 states: a dense nonsymmetric eigenvalue problem of about a second.
inline constexpr int max_dense_analysis_units = 10;

// A unit rule ("gibbs", "flip", "mix:A", "naive"), or "modified:RULE": the modified matrix of the rule's sweep
// with λ = min_x K(x, x) (001 §3; dense only).
struct OperatorSpecification {
  UnitRule rule;
  bool modified = false;
};
OperatorSpecification parse_operator_specification(std::string_view text);
std::string to_string(const OperatorSpecification& specification);

struct OperatorAnalysis {
  std::string name;
  std::uint64_t states = 0;
  std::string representation;  // "dense" or "matrix-free" (of the stationarity and row-sum checks beyond the limit)
  double stationarity_residual = 0.0;
  double row_sum_error = 0.0;
  std::optional<double> layer_detailed_balance_error;  // dense unit-rule operators: max over K_h and K_v
  std::optional<double> lambda;                        // modified operators
  ErgodicityReport ergodicity;
  SlemResult slem;  // 1 whenever the chain is not ergodic
  // ergodic operators: dense solve, or the matrix-free lag series when it converges
  std::optional<double> energy_autocorrelation_time;
  // why an ergodic operator has no energy autocorrelation time (numerically non-ergodic, series not converged)
  std::optional<std::string> energy_autocorrelation_time_unavailable;
};

// Progress of one analysis, for a progress line: called as each of analysis_stages stages starts (stages_done of
// them complete) with a note naming it, and during the matrix-free SLEM and autocorrelation series after every
// application of the operator (one pass over all joint states), with the count in the note.
inline constexpr int analysis_stages = 5;
using AnalysisProgress = std::function<void(int stages_done, const std::string& note)>;

OperatorAnalysis analyse_operator(const Rbm& rbm, const OperatorSpecification& specification,
                                  double inverse_temperature = 1.0, const AnalysisProgress& progress = {});

}  // namespace rbmix::analysis
