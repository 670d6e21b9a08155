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

#include "rbmix/analysis/binomial_interval.hpp"
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

Table trust_goals_table(const EstimatorCalibrationOptions& options, const EstimatorCalibrationResult& result,
                        const analysis::TrustRule& rule) {
  Table table({"models", "estimator", "far_off", "far_off_flagged", "far_off_flagged_share", "far_off_flagged_lower",
               "far_off_flagged_upper", "close", "close_flagged", "close_flagged_share", "close_flagged_lower",
               "close_flagged_upper", "meets_goals"});
  for (const bool held_out : {false, true})
    for (const EstimatorScore& score : score_estimators(result, rule, goal_runs(options, held_out))) {
      const analysis::BinomialInterval far = analysis::wilson_interval(score.far_off_flagged, score.far_off);
      const analysis::BinomialInterval close = analysis::wilson_interval(score.close_flagged, score.close);
      table.add_row({std::string(held_out ? "held-out" : "calibration"), score.method,
                     static_cast<long long>(score.far_off), static_cast<long long>(score.far_off_flagged),
                     score.flagged_far_share(), far.lower, far.upper, static_cast<long long>(score.close),
                     static_cast<long long>(score.close_flagged), score.flagged_close_share(), close.lower,
                     close.upper, static_cast<long long>(goal_shortfall(score) == 0.0 ? 1 : 0)});
    }
  return table;
}

Table coverage_by_configuration_table(const EstimatorCalibrationOptions& options,
                                      const EstimatorCalibrationResult& result) {
  Table table({"chains", "steps", "superchains", "runs", "estimator", "estimates", "coverage_95", "trusted",
               "trusted_coverage_95"});
  for (const ChainConfiguration& configuration : options.configurations)
    for (const std::optional<double> horizon : {std::optional<double>(), std::optional(options.horizon_in_slowest_times)})
      for (const EstimatorScore& score :
           score_estimators(result, options.rule, {1, configuration, horizon, {}}))
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
    const std::vector<EstimatorScore> scores = score_estimators(result, options.rule, {1, configuration, {}, {}});
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
// estimate), estimator_calibration_rules.csv (the candidates, scored on the calibration set),
// estimator_calibration_held_out.csv (the goals per estimator on the calibration and the held-out set), estimator_calibration_<method>.svg (median τ̂ against
// exact τ).
void write_estimator_calibration(const EstimatorCalibrationOptions& options, const EstimatorCalibrationResult& result,
                                 ResultDirectory& out) {
  out.write_csv("estimator_calibration_coverage.csv", coverage_by_configuration_table(options, result));
  out.write_csv("estimator_calibration.csv", estimator_score_table(score_estimators(result, options.rule)));
  out.write_csv("estimator_calibration_multi_chain.csv",
                estimator_score_table(score_estimators(result, options.rule, {multi_chain_runs, {}, {}, {}})));
  out.write_csv("estimator_calibration_goal_runs.csv",
                estimator_score_table(score_estimators(result, options.rule, goal_runs(options))));
  out.write_csv("estimator_calibration_held_out.csv", trust_goals_table(options, result, options.rule));
  out.write_csv("estimator_calibration_intervals.csv",
                interval_candidate_table(interval_candidate_scores(options, result)));

  Table runs({"model", "operator", "chains", "steps", "superchains", "replicate", "exact_tau", "slowest_time",
              "within_horizon", "rhat", "nested_rhat", "ess_bulk", "ess_tail", "estimator", "tau", "lower", "upper",
              "band_lower", "band_upper", "cutoff", "length_in_times", "relative_half_width",
              "chain_jackknife_half_width", "disagreement", "trusted", "warning"});
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
                    signals.relative_half_width, signals.chain_jackknife_half_width, signals.disagreement,
                    static_cast<long long>(estimate.trusted ? 1 : 0), estimate.warning});
    }
  out.write_csv("estimator_calibration_runs.csv", runs);

  const std::vector<RuleCandidate> candidates = rule_candidates(result, options.rule, goal_runs(options, false));
  const std::size_t chosen = result.runs.empty() ? 0 : chosen_rule(candidates);
  Table rules({"max_relative_half_width", "max_disagreement", "far_off", "far_off_flagged_share", "close",
               "close_flagged_share", "estimators_meeting_goals", "shortfall", "chosen"});
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    int meeting = 0;
    double shortfall = 0.0;
    for (std::size_t e = 0; e + 1 < candidates[k].scores.size(); ++e) {
      meeting += goal_shortfall(candidates[k].scores[e]) == 0.0;
      shortfall += goal_shortfall(candidates[k].scores[e]);
    }
    const EstimatorScore& pooled = candidates[k].pooled();
    rules.add_row({candidates[k].rule.max_relative_half_width, candidates[k].rule.max_disagreement,
                   static_cast<long long>(pooled.far_off), pooled.flagged_far_share(),
                   static_cast<long long>(pooled.close), pooled.flagged_close_share(), static_cast<long long>(meeting),
                   shortfall, static_cast<long long>(k == chosen ? 1 : 0)});
  }
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
                                                     result, options.rule, {multi_chain_runs, {}, {}, {}}))});
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
      log << "interval constructions (coverage of the 95 % intervals over the calibration set's goal runs; "
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
    const auto candidates = rule_candidates(result, options.rule, goal_runs(options, false));
    const auto& chosen = candidates[chosen_rule(candidates)];
    log << "chosen rule (over the calibration set's goal runs, per estimator): relative half width <= "
        << chosen.rule.max_relative_half_width << ", disagreement <= " << chosen.rule.max_disagreement
        << " standard errors: flags " << chosen.pooled().flagged_far_share() << " of the " << chosen.pooled().far_off
        << " estimates > 20 % off and " << chosen.pooled().flagged_close_share() << " of the "
        << chosen.pooled().close << " within 10 %\n";
  }
  log << "the goals per estimator under the rule of the options, on the calibration set and on the held-out models "
         "(goal runs; 95 % Wilson intervals; estimator_calibration_held_out.csv):\n";
  report.tables.push_back({"trust_goals", trust_goals_table(options, result, options.rule)});
  report.tables.back().table.print(log, 3);
  report.record_fields["skipped_operators"] = result.skipped_operators;
  return report;
}

}  // namespace rbmix::experiments
