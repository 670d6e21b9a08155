// The scoring of experiment estimator-calibration (estimator_calibration_experiment.hpp): each estimator's error,
// coverage and flags over the selected runs, and the trust rule and interval construction the goals choose.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rbmix/analysis/convergence_diagnostics.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/experiments/estimator_calibration_experiment.hpp"

namespace rbmix::experiments {

namespace {

bool is_finite_estimate(const analysis::IntegratedTimeEstimate& estimate) {
  return std::isfinite(estimate.time) && estimate.time > 0.0;
}

// Whether a 95 % interval holds τ. No lower end (NaN): the band reached 0, so it holds every τ below its upper end.
bool interval_holds(double lower, double upper, double time) { return !(time < lower) && time <= upper; }

// Adds one estimate to a score. An estimate without a finite positive τ̂ counts as far off (and is always flagged:
// its method warns).
void add_to_score(EstimatorScore& score, const analysis::IntegratedTimeEstimate& estimate, double exact, bool flagged,
                  double& sum, double& sum_of_squares) {
  const bool finite = is_finite_estimate(estimate);
  const double error = finite ? estimate.time / exact - 1.0 : std::numeric_limits<double>::infinity();
  if (finite) {
    ++score.estimates;
    sum += error;
    sum_of_squares += error * error;
    const bool covered = interval_holds(estimate.lower, estimate.upper, exact);
    score.coverage += covered ? 1.0 : 0.0;
    score.trusted_covered += covered && !flagged;
  }
  if (std::abs(error) > 0.2) {
    ++score.far_off;
    score.far_off_flagged += flagged;
  } else if (std::abs(error) <= 0.1) {
    ++score.close;
    score.close_flagged += flagged;
  }
  score.trusted += !flagged;
}

void finish_score(EstimatorScore& score, double sum, double sum_of_squares) {
  if (score.estimates == 0) {
    score.mean_relative_error = score.sd_relative_error = score.coverage = std::nan("");
    return;
  }
  const double n = static_cast<double>(score.estimates);
  score.mean_relative_error = sum / n;
  score.sd_relative_error =
      score.estimates > 1 ? std::sqrt(std::max(0.0, (sum_of_squares - sum * sum / n) / (n - 1.0))) : 0.0;
  score.coverage /= n;
}

}  // namespace

bool RunSelection::selects(const CalibrationRun& run) const {
  if (run.configuration.chains < min_chains) return false;
  if (configuration && run.configuration != *configuration) return false;
  if (held_out && run.held_out() != *held_out) return false;
  return !horizon_in_slowest_times || run.within_horizon(*horizon_in_slowest_times);
}

std::vector<EstimatorScore> score_estimators(const EstimatorCalibrationResult& result,
                                             const analysis::TrustRule& rule, const RunSelection& selection) {
  std::vector<EstimatorScore> scores;
  std::vector<double> sums, squares;
  EstimatorScore pooled;
  pooled.method = "all";
  double pooled_sum = 0.0, pooled_squares = 0.0;
  for (const CalibrationRun& run : result.runs) {
    if (!selection.selects(run)) continue;
    const auto& estimates = run.diagnostics.estimates;
    if (scores.empty()) {
      for (const auto& estimate : estimates) scores.push_back({estimate.method});
      sums.assign(estimates.size(), 0.0);
      squares.assign(estimates.size(), 0.0);
    }
    for (std::size_t k = 0; k < estimates.size(); ++k) {
      const bool flagged = !analysis::trust_verdict(run.diagnostics.signals[k], rule).empty();
      add_to_score(scores[k], estimates[k], run.exact_time, flagged, sums[k], squares[k]);
      add_to_score(pooled, estimates[k], run.exact_time, flagged, pooled_sum, pooled_squares);
    }
  }
  for (std::size_t k = 0; k < scores.size(); ++k) finish_score(scores[k], sums[k], squares[k]);
  finish_score(pooled, pooled_sum, pooled_squares);
  scores.push_back(pooled);
  return scores;
}

RunSelection goal_runs(const EstimatorCalibrationOptions& options, std::optional<bool> held_out) {
  return {multi_chain_runs, std::nullopt, options.horizon_in_slowest_times, held_out};
}

std::vector<RuleCandidate> rule_candidates(const EstimatorCalibrationResult& result, const analysis::TrustRule& base,
                                           const RunSelection& selection) {
  std::vector<RuleCandidate> candidates;
  for (const double width : {0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0, 1e9})
    for (const double disagreement : {1.5, 2.0, 2.5, 3.0, 4.0, 6.0, 1e9}) {
      analysis::TrustRule rule = base;
      rule.max_relative_half_width = width;
      rule.max_disagreement = disagreement;
      candidates.push_back({rule, score_estimators(result, rule, selection)});
    }
  return candidates;
}

double goal_shortfall(const EstimatorScore& score) {
  return std::max(0.0, goal_flagged_far_share - score.flagged_far_share()) +
         std::max(0.0, score.flagged_close_share() - goal_flagged_close_share);
}

std::size_t chosen_rule(const std::vector<RuleCandidate>& candidates) {
  require(!candidates.empty(), "chosen_rule: no candidates");
  // Summed over the estimators, "all" left out; ties go to fewer needless flags pooled.
  const auto shortfall = [](const RuleCandidate& candidate) {
    double sum = 0.0;
    for (std::size_t k = 0; k + 1 < candidate.scores.size(); ++k) sum += goal_shortfall(candidate.scores[k]);
    return sum;
  };
  std::size_t best = 0;
  for (std::size_t k = 1; k < candidates.size(); ++k) {
    const double candidate = shortfall(candidates[k]), current = shortfall(candidates[best]);
    if (candidate < current || (candidate == current && candidates[k].pooled().flagged_close_share() <
                                                            candidates[best].pooled().flagged_close_share()))
      best = k;
  }
  return best;
}

std::vector<IntervalCandidateScore> interval_candidate_scores(const EstimatorCalibrationOptions& options,
                                                              const EstimatorCalibrationResult& result) {
  const RunSelection selection = goal_runs(options, false);
  std::vector<IntervalCandidateScore> scores;
  // construction −1: the band alone; k ≥ 0: joined with long_batch_factor_candidates[k].
  for (int construction = -1; construction < static_cast<int>(long_batch_factor_candidates.size()); ++construction) {
    std::map<std::string, std::pair<std::vector<double>, int>> widths_and_covered;  // method → (widths, covered)
    std::vector<std::string> methods;
    for (const CalibrationRun& run : result.runs) {
      if (!selection.selects(run)) continue;
      for (const analysis::IntegratedTimeEstimate& estimate : run.diagnostics.estimates) {
        if (!is_finite_estimate(estimate)) continue;
        double lower = estimate.band_lower, upper = estimate.band_upper;
        if (construction >= 0) {
          const LongBatchInterval& batches = run.long_batch_candidates.at(static_cast<std::size_t>(construction));
          // An open lower end (NaN) stays open, as mixing_diagnostics joins them.
          if (!std::isnan(lower)) lower = std::fmin(lower, batches.lower);
          upper = std::fmax(upper, batches.upper);
        }
        if (!widths_and_covered.count(estimate.method)) methods.push_back(estimate.method);
        auto& [widths, covered] = widths_and_covered[estimate.method];
        covered += interval_holds(lower, upper, run.exact_time);
        widths.push_back(std::isnan(lower) ? upper / estimate.time : (upper - lower) / (2.0 * estimate.time));
      }
    }
    const std::string name = construction < 0 ? std::string("band")
                                              : "band + long batches x" +
                                                    std::to_string(static_cast<int>(long_batch_factor_candidates[construction]));
    for (const std::string& method : methods) {
      auto& [widths, covered] = widths_and_covered[method];
      std::sort(widths.begin(), widths.end());
      scores.push_back({name, method, static_cast<int>(widths.size()),
                        static_cast<double>(covered) / static_cast<double>(widths.size()),
                        widths[widths.size() / 2]});
    }
  }
  return scores;
}

std::optional<std::size_t> chosen_interval(const std::vector<IntervalCandidateScore>& scores) {
  // Per construction, in the order of interval_candidate_scores: the smallest coverage over the estimators and the
  // recommended estimator's median relative half width.
  std::vector<std::string> constructions;
  std::map<std::string, std::pair<double, double>> worst_and_width;
  for (const IntervalCandidateScore& score : scores) {
    if (!worst_and_width.count(score.construction)) {
      constructions.push_back(score.construction);
      worst_and_width[score.construction] = {1.0, std::numeric_limits<double>::infinity()};
    }
    auto& [worst, width] = worst_and_width[score.construction];
    worst = std::min(worst, score.coverage);
    if (score.method == analysis::recommended_integrated_time_method) width = score.median_relative_half_width;
  }
  require(!constructions.empty(), "chosen_interval: no scores");
  std::size_t best = 0;
  for (std::size_t k = 1; k < constructions.size(); ++k) {
    const auto [worst, width] = worst_and_width[constructions[k]];
    const auto [best_worst, best_width] = worst_and_width[constructions[best]];
    const bool meets = worst >= goal_coverage, best_meets = best_worst >= goal_coverage;
    if ((meets && !best_meets) || (meets && best_meets && width < best_width) ||
        (!meets && !best_meets && worst > best_worst))
      best = k;
  }
  if (best == 0) return std::nullopt;
  return best - 1;
}

}  // namespace rbmix::experiments
