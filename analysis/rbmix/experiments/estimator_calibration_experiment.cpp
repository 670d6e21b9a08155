#include "rbmix/experiments/estimator_calibration_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "rbmix/analysis/operator_analysis.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/experiments/exact_number.hpp"
#include "rbmix/experiments/job_runner.hpp"
#include "rbmix/experiments/random_rbm_family.hpp"
#include "rbmix/experiments/random_start_energy_traces.hpp"
#include "rbmix/experiments/trial_seed.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix::experiments {

void EstimatorCalibrationOptions::validate() const {
  require(!operators.empty(), "estimator-calibration: at least one operator");
  for (const std::string& name : operators) analysis::parse_operator_specification(name);  // throws on a bad name
  for (const int size : sizes)
    require(size >= 1 && 2 * size <= analysis::max_dense_analysis_units,
            "estimator-calibration: random RBM sizes must be 1.." +
                std::to_string(analysis::max_dense_analysis_units / 2) + " (exact analysis), got " +
                std::to_string(size));
  for (const int bound : weight_bounds) require(bound >= 1, "estimator-calibration: weight bounds must be ≥ 1");
  require(random_rbms_per_setting >= 0 && trained_rbms >= 0, "estimator-calibration: RBM counts must be ≥ 0");
  require(random_rbms_per_setting * static_cast<int>(sizes.size() * weight_bounds.size()) + trained_rbms > 0,
          "estimator-calibration: the population is empty");
  require(trained_hidden >= 1 && trained_hidden <= 12,
          "estimator-calibration: trained hidden units must be 1..12 (9 + 12 units is the exact analysis' limit)");
  require(training_updates >= 1, "estimator-calibration: training updates must be ≥ 1");
  require(!configurations.empty(), "estimator-calibration: at least one chain configuration");
  for (const ChainConfiguration& configuration : configurations)
    require(configuration.chains >= 1 && configuration.steps >= 16,
            "estimator-calibration: a configuration needs ≥ 1 chain of ≥ 16 steps");
  require(replicates >= 1, "estimator-calibration: replicates must be ≥ 1");
  require(burn_in >= 0, "estimator-calibration: burn-in must be ≥ 0");
  rule.validate();
}

EstimatorCalibrationOptions estimator_calibration_options(Scale scale, std::uint64_t seed) {
  EstimatorCalibrationOptions options;
  options.seed = seed;
  if (scale == Scale::smoke) {
    options.sizes = {3};
    options.weight_bounds = {1, 4};
    options.random_rbms_per_setting = 1;
    options.trained_rbms = 1;
    options.trained_hidden = 4;
    options.training_updates = 200;
    options.operators = {"gibbs", "flip"};
    options.configurations = {{4, 1000}, {4, 4000}};
    options.replicates = 2;
  } else {
    options.configurations.push_back({64, 20000});
  }
  return options;
}

nlohmann::json to_json(const EstimatorCalibrationOptions& options) {
  nlohmann::json configurations = nlohmann::json::array();
  for (const ChainConfiguration& configuration : options.configurations)
    configurations.push_back({{"chains", configuration.chains}, {"steps", configuration.steps}});
  return {{"sizes", options.sizes},
          {"weight_bounds", options.weight_bounds},
          {"random_rbms_per_setting", options.random_rbms_per_setting},
          {"trained_rbms", options.trained_rbms},
          {"trained_data", "bars_and_stripes 3x3"},
          {"trained_hidden", options.trained_hidden},
          {"training", "CD-5 with G (even index) or T (odd), learning rate 0.1, full batch"},
          {"training_updates", options.training_updates},
          {"operators", options.operators},
          {"configurations", configurations},
          {"replicates", options.replicates},
          {"burn_in", options.burn_in},
          {"start", "visible units uniform at random"},
          {"trust_rule",
           {{"max_potential_scale_reduction", options.rule.max_potential_scale_reduction},
            {"min_length_in_times", options.rule.min_length_in_times},
            {"max_relative_half_width", options.rule.max_relative_half_width},
            {"max_disagreement", options.rule.max_disagreement},
            {"min_batch_in_times", options.rule.min_batch_in_times}}},
          {"seed", options.seed}};
}

namespace {

struct CalibrationModel {
  std::string name;
  int size = 0;  // random RBMs: m = n = size, W ~ U[−bound, bound]
  int bound = 0;
  int index = 0;
  bool trained = false;
};

std::vector<CalibrationModel> calibration_models(const EstimatorCalibrationOptions& options) {
  std::vector<CalibrationModel> models;
  for (const int size : options.sizes)
    for (const int bound : options.weight_bounds)
      for (int index = 0; index < options.random_rbms_per_setting; ++index)
        models.push_back(
            {"random m=n=" + std::to_string(size) + " c=" + std::to_string(bound) + " #" + std::to_string(index), size,
             bound, index, false});
  for (int index = 0; index < options.trained_rbms; ++index)
    models.push_back({"bas3x3 trained #" + std::to_string(index), 0, 0, index, true});
  return models;
}

// Bars & Stripes 3×3 by CD-5, full batch, as the demo trains: a model whose modes the chains cross rarely.
Rbm trained_rbm(const EstimatorCalibrationOptions& options, int index, std::uint64_t seed) {
  const MatrixD data = to_real(bars_and_stripes(3));
  TrainingOptions training;
  apply_algorithm(training, Algorithm::cd);
  training.rule = index % 2 == 0 ? UnitRule{GibbsRule{}} : UnitRule{FlipTheStateRule{}};
  training.sampling_steps = 5;
  training.learning_rate = 0.1;
  training.updates = options.training_updates;
  training.evaluation_interval = 0;
  training.seed = seed;
  Trainer trainer(training, data, MatrixD(0, data.cols()), options.trained_hidden);
  trainer.run();
  return trainer.model();
}

struct OperatorJob {
  std::vector<CalibrationRun> runs;
  bool skipped = false;
};

// A job's result as the grid journals it (job_runner.hpp), so that a paper-scale run resumes, shards and reports its
// progress; every double is an exact number.
nlohmann::json to_grid_json(const OperatorJob& job) {
  nlohmann::json runs = nlohmann::json::array();
  for (const CalibrationRun& run : job.runs)
    runs.push_back({{"model", run.model},
                    {"operator", run.operator_name},
                    {"exact_time", exact_number(run.exact_time)},
                    {"chains", run.configuration.chains},
                    {"steps", run.configuration.steps},
                    {"replicate", run.replicate},
                    {"diagnostics", exact_diagnostics(run.diagnostics)}});
  return {{"skipped", job.skipped}, {"runs", runs}};
}

void from_grid_json(const nlohmann::json& json, OperatorJob& job) {
  job.skipped = json.at("skipped").get<bool>();
  job.runs.clear();
  for (const nlohmann::json& run : json.at("runs"))
    job.runs.push_back({run.at("model").get<std::string>(),
                        run.at("operator").get<std::string>(),
                        read_exact_number(run.at("exact_time")),
                        {run.at("chains").get<Eigen::Index>(), run.at("steps").get<Eigen::Index>()},
                        run.at("replicate").get<int>(),
                        read_exact_diagnostics(run.at("diagnostics"))});
}

bool is_finite_estimate(const analysis::IntegratedTimeEstimate& estimate) {
  return std::isfinite(estimate.time) && estimate.time > 0.0;
}

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
    // No lower end (NaN): the band reached 0, so it covers every τ below its upper end.
    const bool covered = !(exact < estimate.lower) && exact <= estimate.upper;
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

OrPartDone<EstimatorCalibrationResult> run_estimator_calibration(const EstimatorCalibrationOptions& options,
                                                                 const JobRunner& runner) {
  options.validate();
  const std::vector<CalibrationModel> models = calibration_models(options);
  const std::size_t jobs = models.size() * options.operators.size();
  const auto results = run_jobs(runner, JobPhase{0}, jobs, [&](std::size_t job) {
    const CalibrationModel& model = models[job / options.operators.size()];
    const std::string& name = options.operators[job % options.operators.size()];
    // The model's seed depends on the model alone, so that every operator sees the same RBM.
    const std::uint64_t model_seed = trial_seed(options.seed, 1000000 + job / options.operators.size());
    const Rbm rbm = model.trained ? trained_rbm(options, model.index, model_seed)
                                  : fig3_random_rbm(options.seed, model.size, model.bound, model.index);
    const analysis::OperatorSpecification specification = analysis::parse_operator_specification(name);
    OperatorJob out;
    const std::optional<double> exact = analysis::analyse_operator(rbm, specification).energy_autocorrelation_time;
    if (!exact || !(*exact > 0.0)) {
      out.skipped = true;
      return out;
    }
    std::uint64_t draw = 0;
    for (const ChainConfiguration& configuration : options.configurations)
      for (int replicate = 0; replicate < options.replicates; ++replicate) {
        const EnergyTraceRequest request{specification.rule,
                                         configuration.steps,
                                         configuration.chains,
                                         options.burn_in,
                                         trial_seed(trial_seed(options.seed, job), draw++),
                                         false,
                                         {}};
        const MatrixD traces = specification.modified ? sample_modified_sweep_energy_traces(rbm, request)
                                                      : sample_energy_traces(rbm, request);
        out.runs.push_back(
            {model.name, name, *exact, configuration, replicate, analysis::mixing_diagnostics(traces, options.rule)});
      }
    return out;
  });
  if (!results) return results.part_done();
  EstimatorCalibrationResult result;
  for (const OperatorJob& job : results.value()) {
    result.skipped_operators += job.skipped;
    result.runs.insert(result.runs.end(), job.runs.begin(), job.runs.end());
  }
  return result;
}

std::vector<EstimatorScore> score_estimators(const EstimatorCalibrationResult& result,
                                             const analysis::TrustRule& rule, Eigen::Index min_chains,
                                             std::optional<ChainConfiguration> configuration) {
  std::vector<EstimatorScore> scores;
  std::vector<double> sums, squares;
  EstimatorScore pooled;
  pooled.method = "all";
  double pooled_sum = 0.0, pooled_squares = 0.0;
  for (const CalibrationRun& run : result.runs) {
    if (run.configuration.chains < min_chains) continue;
    if (configuration &&
        (run.configuration.chains != configuration->chains || run.configuration.steps != configuration->steps))
      continue;
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

std::vector<RuleCandidate> rule_candidates(const EstimatorCalibrationResult& result, const analysis::TrustRule& base) {
  std::vector<RuleCandidate> candidates;
  for (const double width : {0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0, 1e9})
    for (const double disagreement : {1.5, 2.0, 2.5, 3.0, 4.0, 6.0, 1e9}) {
      analysis::TrustRule rule = base;
      rule.max_relative_half_width = width;
      rule.max_disagreement = disagreement;
      candidates.push_back({rule, score_estimators(result, rule).back()});
    }
  return candidates;
}

std::size_t chosen_rule(const std::vector<RuleCandidate>& candidates) {
  require(!candidates.empty(), "chosen_rule: no candidates");
  // How far a rule falls short of the two goals (0 when it meets both); ties go to fewer needless flags.
  const auto shortfall = [](const EstimatorScore& score) {
    return std::max(0.0, goal_flagged_far_share - score.flagged_far_share()) +
           std::max(0.0, score.flagged_close_share() - goal_flagged_close_share);
  };
  std::size_t best = 0;
  for (std::size_t k = 1; k < candidates.size(); ++k) {
    const EstimatorScore& candidate = candidates[k].pooled;
    const EstimatorScore& current = candidates[best].pooled;
    if (shortfall(candidate) < shortfall(current) ||
        (shortfall(candidate) == shortfall(current) && candidate.flagged_close_share() < current.flagged_close_share()))
      best = k;
  }
  return best;
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
  Table table({"chains", "steps", "estimator", "estimates", "coverage_95", "trusted", "trusted_coverage_95"});
  for (const ChainConfiguration& configuration : options.configurations)
    for (const EstimatorScore& score : score_estimators(result, options.rule, 1, configuration))
      table.add_row({static_cast<long long>(configuration.chains), static_cast<long long>(configuration.steps),
                     score.method, static_cast<long long>(score.estimates), score.coverage,
                     static_cast<long long>(score.trusted), score.trusted_coverage()});
  return table;
}

namespace {

// Coverage against the run shape, one line per estimator (the shapes in the options' order, at x = chains × steps
// draws), with the nominal 95 % and the 90 % the trusted intervals must reach (docs/algorithms.md §6.7).
void write_coverage_plot(const EstimatorCalibrationOptions& options, const EstimatorCalibrationResult& result,
                         ResultDirectory& out) {
  std::vector<PlotSeries> series;
  for (const ChainConfiguration& configuration : options.configurations) {
    const std::vector<EstimatorScore> scores = score_estimators(result, options.rule, 1, configuration);
    if (series.empty())
      for (const EstimatorScore& score : scores)
        series.push_back({analysis::estimator_label(score.method), {}, {}, {}, {}, score.method == "all"});
    for (std::size_t k = 0; k < scores.size() && k < series.size(); ++k) {
      series[k].x.push_back(static_cast<double>(configuration.chains * configuration.steps));
      series[k].y.push_back(scores[k].coverage);
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
// runs of at least multi_chain_runs chains), estimator_calibration_runs.csv (every estimate),
// estimator_calibration_rules.csv (the candidates), estimator_calibration_<method>.svg (median τ̂ against exact τ).
void write_estimator_calibration(const EstimatorCalibrationOptions& options, const EstimatorCalibrationResult& result,
                                 ResultDirectory& out) {
  out.write_csv("estimator_calibration_coverage.csv", coverage_by_configuration_table(options, result));
  out.write_csv("estimator_calibration.csv", estimator_score_table(score_estimators(result, options.rule)));
  out.write_csv("estimator_calibration_multi_chain.csv",
                estimator_score_table(score_estimators(result, options.rule, multi_chain_runs)));

  Table runs({"model", "operator", "chains", "steps", "replicate", "exact_tau", "rhat", "ess_bulk", "ess_tail",
              "estimator", "tau", "lower", "upper", "cutoff", "length_in_times", "relative_half_width", "disagreement",
              "trusted", "warning"});
  for (const CalibrationRun& run : result.runs)
    for (std::size_t k = 0; k < run.diagnostics.estimates.size(); ++k) {
      const analysis::IntegratedTimeEstimate& estimate = run.diagnostics.estimates[k];
      const analysis::TrustSignals& signals = run.diagnostics.signals[k];
      runs.add_row({run.model, run.operator_name, static_cast<long long>(run.configuration.chains),
                    static_cast<long long>(run.configuration.steps), static_cast<long long>(run.replicate),
                    run.exact_time, run.diagnostics.potential_scale_reduction,
                    run.diagnostics.bulk_effective_sample_size, run.diagnostics.tail_effective_sample_size,
                    estimate.method, estimate.time, estimate.lower, estimate.upper,
                    static_cast<long long>(estimate.cutoff), signals.length_in_times, signals.relative_half_width,
                    signals.disagreement, static_cast<long long>(estimate.trusted ? 1 : 0), estimate.warning});
    }
  out.write_csv("estimator_calibration_runs.csv", runs);

  const std::vector<RuleCandidate> candidates = rule_candidates(result, options.rule);
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
        if (run.configuration.chains == configuration.chains && run.configuration.steps == configuration.steps)
          groups[{run.exact_time, run.model + run.operator_name}].push_back(run.diagnostics.estimates[k].time);
      PlotSeries line{
          std::to_string(configuration.chains) + " x " + std::to_string(configuration.steps), {}, {}, {}, {}, false};
      for (auto& [key, values] : groups) {
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
                   0.0,
                   std::nullopt,
                   {}});
  }
}

}  // namespace

std::vector<ExperimentOption> EstimatorCalibration::own_options() {
  return {{"--replicates", "independent trace sets per (model, operator, chains x steps) (default: paper 4, smoke 2)"},
          {"--configurations",
           "chain configurations CHAINSxSTEPS, comma-separated, e.g. 16x5000,64x5000 (default: the scale's)"},
          {"--operators",
           "operators to run comma-separated (default: gibbs,flip,mix:0.5,unit-modified:0.5; smoke gibbs,flip)"},
          {"--random-rbms", "random RBMs per (m = n, c) (default: paper 2, smoke 1)"}};
}

namespace {

// "CHAINSxSTEPS", both positive integers.
ChainConfiguration parse_configuration(const std::string& text) {
  const std::size_t cross = text.find('x');
  const auto positive = [&](const std::string& digits) {
    require(!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos && digits.size() < 10,
            "--configurations: '" + text + "' is not CHAINSxSTEPS (e.g. 16x5000)");
    return static_cast<Eigen::Index>(std::stoll(digits));
  };
  require(cross != std::string::npos, "--configurations: '" + text + "' is not CHAINSxSTEPS (e.g. 16x5000)");
  return {positive(text.substr(0, cross)), positive(text.substr(cross + 1))};
}

}  // namespace

EstimatorCalibrationOptions EstimatorCalibration::make_options(const ExperimentInputs& inputs) {
  EstimatorCalibrationOptions options = estimator_calibration_options(inputs.scale, inputs.seed);
  if (const auto replicates = inputs.integer("--replicates", 1)) options.replicates = static_cast<int>(*replicates);
  if (const auto configurations = inputs.words("--configurations")) {
    options.configurations.clear();
    for (const std::string& text : *configurations) options.configurations.push_back(parse_configuration(text));
  }
  if (const auto operators = inputs.words("--operators")) options.operators = *operators;
  if (const auto random_rbms = inputs.integer("--random-rbms", 0))
    options.random_rbms_per_setting = static_cast<int>(*random_rbms);
  options.validate();
  return options;
}

nlohmann::json EstimatorCalibration::configuration(const EstimatorCalibrationOptions& options) {
  return to_json(options);
}

OrPartDone<EstimatorCalibrationResult> EstimatorCalibration::run(const EstimatorCalibrationOptions& options,
                                                                 const JobRunner& runner, std::ostream& log) {
  log << "estimator-calibration: every τ estimator against the exact τ of tiny RBMs\n";
  return run_estimator_calibration(options, runner);
}

ExperimentReport EstimatorCalibration::report(const EstimatorCalibrationOptions& options,
                                              const EstimatorCalibrationResult& result, ResultDirectory& out,
                                              std::ostream& log) {
  write_estimator_calibration(options, result, out);
  ExperimentReport report;
  log << result.runs.size() << " trace sets; estimates against the exact tau, trust rule of the options:\n";
  report.tables.push_back({"scores", estimator_score_table(score_estimators(result, options.rule))});
  report.tables.back().table.print(log, 3);
  log << "the same over the runs of at least " << multi_chain_runs << " chains:\n";
  report.tables.push_back(
      {"scores_multi_chain", estimator_score_table(score_estimators(result, options.rule, multi_chain_runs))});
  report.tables.back().table.print(log, 3);
  const auto candidates = rule_candidates(result, options.rule);
  if (!result.runs.empty()) {
    const auto& chosen = candidates[chosen_rule(candidates)];
    log << "chosen rule: relative half width <= " << chosen.rule.max_relative_half_width
        << ", disagreement <= " << chosen.rule.max_disagreement << " standard errors: flags "
        << chosen.pooled.flagged_far_share() << " of the " << chosen.pooled.far_off << " estimates > 20 % off and "
        << chosen.pooled.flagged_close_share() << " of the " << chosen.pooled.close << " within 10 %\n";
    for (const EstimatorScore& score : score_estimators(result, chosen.rule))
      if (score.method == analysis::recommended_integrated_time_method)
        log << "  under it the recommended " << score.method << " flags " << score.flagged_far_share() << " of its "
            << score.far_off << " estimates > 20 % off and " << score.flagged_close_share() << " of the " << score.close
            << " within 10 %\n";
  }
  report.record_fields["skipped_operators"] = result.skipped_operators;
  return report;
}

}  // namespace rbmix::experiments
