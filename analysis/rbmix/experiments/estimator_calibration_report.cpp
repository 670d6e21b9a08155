// The report of experiment estimator-calibration (estimator_calibration_experiment.hpp): the tables, the CSV files,
// the plots against exact τ and the summary of the chosen rule and interval.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rbmix/analysis/convergence_diagnostics.hpp"
#include "rbmix/analysis/integrated_autocorrelation_time.hpp"
#include "rbmix/experiments/estimator_calibration_experiment.hpp"

namespace rbmix::experiments {

Table interval_candidate_table(const std::vector<IntervalCandidateScore>& scores) {
  Table table({"construction", "estimator", "estimates", "coverage_95", "median_relative_half_width"});
  for (const IntervalCandidateScore& score : scores)
    table.add_row({score.construction, score.method, static_cast<long long>(score.estimates), score.coverage,
                   score.median_relative_half_width});
  return table;
}

Table estimator_score_table(const std::vector<EstimatorScore>& scores) {
  Table table({"estimator", "estimates", "mean_relative_error", "sd_relative_error", "coverage_95", "far_off",
               "far_off_flagged_share", "close", "close_flagged_share", "trusted"});
  for (const EstimatorScore& score : scores)
    table.add_row({score.method, static_cast<long long>(score.estimates), score.mean_relative_error,
                   score.sd_relative_error, score.coverage, static_cast<long long>(score.far_off),
                   score.flagged_far_share(), static_cast<long long>(score.close), score.flagged_close_share(),
                   static_cast<long long>(score.trusted)});
  return table;
}

Table coverage_by_configuration_table(const EstimatorCalibrationOptions& options,
                                      const EstimatorCalibrationResult& result) {
  Table table({"chains", "steps", "superchains", "runs", "estimator", "estimates", "coverage_95", "trusted",
               "trusted_coverage_95"});
  for (const ChainConfiguration& configuration : options.configurations)
    for (const std::optional<double> horizon : {std::optional<double>(), std::optional(options.horizon_in_slowest_times)})
      for (const EstimatorScore& score :
           score_estimators(result, options.rule, {1, configuration, horizon}))
        table.add_row({static_cast<long long>(configuration.chains), static_cast<long long>(configuration.steps),
                       static_cast<long long>(configuration.superchains),
                       std::string(horizon ? "within horizon" : "all"), score.method,
                       static_cast<long long>(score.estimates), score.coverage, static_cast<long long>(score.trusted),
                       score.trusted_coverage()});
  return table;
}

namespace {

// Coverage against the run shape, one line per estimator (the shapes at x = chains × steps draws, left to right),
// with the nominal 95 % and the 90 % the trusted intervals must reach (docs/algorithms/calibration.md §6.7).
void write_coverage_plot(const EstimatorCalibrationOptions& options, const EstimatorCalibrationResult& result,
                         ResultDirectory& out) {
  std::vector<PlotSeries> series;
  for (const ChainConfiguration& configuration : options.configurations) {
    const std::vector<EstimatorScore> scores = score_estimators(result, options.rule, {1, configuration, {}});
    if (series.empty())
      for (const EstimatorScore& score : scores)
        series.push_back({analysis::estimator_label(score.method), {}, {}, {}, {}, score.method == "all"});
    for (std::size_t k = 0; k < scores.size() && k < series.size(); ++k) {
      series[k].x.push_back(static_cast<double>(configuration.chains * configuration.steps));
      series[k].y.push_back(scores[k].coverage);
    }
  }
  // Each line left to right, whatever the order of the shapes in the options.
  for (PlotSeries& line : series) {
    std::vector<std::size_t> order(line.x.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return line.x[a] < line.x[b]; });
    const std::vector<double> x = line.x, y = line.y;
    for (std::size_t k = 0; k < order.size(); ++k) {
      line.x[k] = x[order[k]];
      line.y[k] = y[order[k]];
    }
  }
  out.write_svg("estimator_calibration_coverage.svg", series,
                {"Coverage of the 95 % intervals against the run shape",
                 "draws per run (chains x steps)",
                 "share of intervals holding the exact tau",
                 true,
                 0.0,
                 1.0,
                 {{"nominal 0.95", 0.95}, {"0.90", 0.90}}});
}

// estimator_calibration.csv (scores under options.rule; estimator_calibration_multi_chain.csv the same over the
// runs of at least multi_chain_runs chains, estimator_calibration_goal_runs.csv over those within their horizon),
// estimator_calibration_intervals.csv (the interval constructions), estimator_calibration_runs.csv (every
// estimate), estimator_calibration_rules.csv (the candidates), estimator_calibration_<method>.svg (median τ̂ against
// exact τ).
void write_estimator_calibration(const EstimatorCalibrationOptions& options, const EstimatorCalibrationResult& result,
                                 ResultDirectory& out) {
  out.write_csv("estimator_calibration_coverage.csv", coverage_by_configuration_table(options, result));
  out.write_csv("estimator_calibration.csv", estimator_score_table(score_estimators(result, options.rule)));
  out.write_csv("estimator_calibration_multi_chain.csv",
                estimator_score_table(score_estimators(result, options.rule, {multi_chain_runs, {}, {}})));
  out.write_csv("estimator_calibration_goal_runs.csv",
                estimator_score_table(score_estimators(result, options.rule, goal_runs(options))));
  out.write_csv("estimator_calibration_intervals.csv",
                interval_candidate_table(interval_candidate_scores(options, result)));

  Table runs({"model", "operator", "chains", "steps", "superchains", "replicate", "exact_tau", "slowest_time",
              "within_horizon", "rhat", "nested_rhat", "ess_bulk", "ess_tail", "estimator", "tau", "lower", "upper",
              "band_lower", "band_upper", "cutoff", "length_in_times", "relative_half_width", "disagreement",
              "trusted", "warning"});
  for (const CalibrationRun& run : result.runs)
    for (std::size_t k = 0; k < run.diagnostics.estimates.size(); ++k) {
      const analysis::IntegratedTimeEstimate& estimate = run.diagnostics.estimates[k];
      const analysis::TrustSignals& signals = run.diagnostics.signals[k];
      runs.add_row({run.model, run.operator_name, static_cast<long long>(run.configuration.chains),
                    static_cast<long long>(run.configuration.steps),
                    static_cast<long long>(run.configuration.superchains), static_cast<long long>(run.replicate),
                    run.exact_time, run.slowest_time,
                    static_cast<long long>(run.within_horizon(options.horizon_in_slowest_times) ? 1 : 0),
                    run.diagnostics.potential_scale_reduction, run.nested_potential_scale_reduction,
                    run.diagnostics.bulk_effective_sample_size, run.diagnostics.tail_effective_sample_size,
                    estimate.method, estimate.time, estimate.lower, estimate.upper, estimate.band_lower,
                    estimate.band_upper, static_cast<long long>(estimate.cutoff), signals.length_in_times,
                    signals.relative_half_width, signals.disagreement,
                    static_cast<long long>(estimate.trusted ? 1 : 0), estimate.warning});
    }
  out.write_csv("estimator_calibration_runs.csv", runs);

  const std::vector<RuleCandidate> candidates = rule_candidates(result, options.rule, goal_runs(options));
  const std::size_t chosen = result.runs.empty() ? 0 : chosen_rule(candidates);
  Table rules({"max_relative_half_width", "max_disagreement", "far_off", "far_off_flagged_share", "close",
               "close_flagged_share", "chosen"});
  for (std::size_t k = 0; k < candidates.size(); ++k)
    rules.add_row({candidates[k].rule.max_relative_half_width, candidates[k].rule.max_disagreement,
                   static_cast<long long>(candidates[k].pooled.far_off), candidates[k].pooled.flagged_far_share(),
                   static_cast<long long>(candidates[k].pooled.close), candidates[k].pooled.flagged_close_share(),
                   static_cast<long long>(k == chosen ? 1 : 0)});
  out.write_csv("estimator_calibration_rules.csv", rules);

  // Per estimator and configuration: the median τ̂ over the replicates against the exact τ, with the range.
  if (result.runs.empty()) return;
  write_coverage_plot(options, result, out);
  const std::size_t estimators = result.runs.front().diagnostics.estimates.size();
  for (std::size_t k = 0; k < estimators; ++k) {
    const std::string method = result.runs.front().diagnostics.estimates[k].method;
    std::vector<PlotSeries> series;
    double largest = 0.0, smallest = std::numeric_limits<double>::infinity();
    for (const ChainConfiguration& configuration : options.configurations) {
      // exact τ (and its operator) → the replicates' estimates
      std::map<std::pair<double, std::string>, std::vector<double>> groups;
      for (const CalibrationRun& run : result.runs)
        if (run.configuration == configuration)
          groups[{run.exact_time, run.model + run.operator_name}].push_back(run.diagnostics.estimates[k].time);
      PlotSeries line{to_string(configuration), {}, {}, {}, {}, false};
      for (auto& [key, estimates] : groups) {
        // Both axes are logarithmic (exact τ spans 1 to 10^5): the estimates at or below 0, or undefined, are left
        // out of the median and the range.
        std::vector<double> values;
        for (const double estimate : estimates)
          if (estimate > 0.0 && std::isfinite(estimate)) values.push_back(estimate);
        if (values.empty()) continue;
        std::sort(values.begin(), values.end());
        line.x.push_back(key.first);
        line.y.push_back(values[values.size() / 2]);
        line.lower.push_back(values.front());
        line.upper.push_back(values.back());
        largest = std::max(largest, key.first);
        smallest = std::min(smallest, key.first);
      }
      series.push_back(std::move(line));
    }
    series.push_back({"exact", {smallest, largest}, {smallest, largest}, {}, {}, true});
    out.write_svg("estimator_calibration_" + method + ".svg", series,
                  {method + ": median estimate (range over replicates) against exact tau",
                   "exact tau (sweeps)",
                   "estimated tau (sweeps)",
                   true,
                   std::nullopt,
                   std::nullopt,
                   {},
                   true});
  }
}

}  // namespace

ExperimentReport EstimatorCalibration::report(const EstimatorCalibrationOptions& options,
                                              const EstimatorCalibrationResult& result, ResultDirectory& out,
                                              std::ostream& log) {
  write_estimator_calibration(options, result, out);
  ExperimentReport report;
  log << result.runs.size() << " trace sets; estimates against the exact tau, trust rule of the options:\n";
  report.tables.push_back({"scores", estimator_score_table(score_estimators(result, options.rule))});
  report.tables.back().table.print(log, 3);
  log << "the same over the runs of at least " << multi_chain_runs << " chains:\n";
  report.tables.push_back({"scores_multi_chain", estimator_score_table(score_estimators(
                                                     result, options.rule, {multi_chain_runs, {}, {}}))});
  report.tables.back().table.print(log, 3);
  log << "the same over those of them within their horizon (chains at least " << options.horizon_in_slowest_times
      << " exact tau_exp long), where the goals apply:\n";
  report.tables.push_back(
      {"scores_goal_runs", estimator_score_table(score_estimators(result, options.rule, goal_runs(options)))});
  report.tables.back().table.print(log, 3);
  if (!result.runs.empty()) {
    const std::vector<IntervalCandidateScore> intervals = interval_candidate_scores(options, result);
    if (intervals.empty()) {
      log << "no run of at least " << multi_chain_runs << " chains within its horizon: no interval is chosen\n";
    } else {
      const std::optional<std::size_t> interval = chosen_interval(intervals);
      log << "interval constructions (coverage of the 95 % intervals over the goal runs; "
          << "estimator_calibration_intervals.csv): chosen "
          << (interval ? "band + long batches x" +
                             std::to_string(static_cast<int>(long_batch_factor_candidates[*interval]))
                       : std::string("band"))
          << "; rbmix uses band + long batches x" << analysis::long_batch_in_cutoffs << "\n";
      for (const IntervalCandidateScore& score : intervals)
        if (score.method == analysis::recommended_integrated_time_method)
          log << "  " << score.construction << ": coverage " << score.coverage << ", median relative half width "
              << score.median_relative_half_width << "\n";
    }
    const auto candidates = rule_candidates(result, options.rule, goal_runs(options));
    const auto& chosen = candidates[chosen_rule(candidates)];
    log << "chosen rule (over the goal runs): relative half width <= " << chosen.rule.max_relative_half_width
        << ", disagreement <= " << chosen.rule.max_disagreement << " standard errors: flags "
        << chosen.pooled.flagged_far_share() << " of the " << chosen.pooled.far_off << " estimates > 20 % off and "
        << chosen.pooled.flagged_close_share() << " of the " << chosen.pooled.close << " within 10 %\n";
    for (const EstimatorScore& score : score_estimators(result, chosen.rule, goal_runs(options)))
      if (score.method == analysis::recommended_integrated_time_method)
        log << "  under it the recommended " << score.method << " flags " << score.flagged_far_share() << " of its "
            << score.far_off << " estimates > 20 % off and " << score.flagged_close_share() << " of the " << score.close
            << " within 10 %; its trusted intervals cover " << score.trusted_coverage() << "\n";
  }
  report.record_fields["skipped_operators"] = result.skipped_operators;
  return report;
}

}  // namespace rbmix::experiments
