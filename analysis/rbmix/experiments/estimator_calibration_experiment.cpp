#include "rbmix/experiments/estimator_calibration_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "rbmix/analysis/convergence_diagnostics.hpp"
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
  require(random_rbms_per_setting >= 0 && trained_rbms >= 0 && modes_rbms >= 0,
          "estimator-calibration: RBM counts must be ≥ 0");
  require(random_rbms_per_setting * static_cast<int>(sizes.size() * weight_bounds.size()) +
                  trained_rbms * static_cast<int>(trained_hidden.size()) + modes_rbms >
              0,
          "estimator-calibration: the population is empty");
  for (const Eigen::Index hidden : trained_hidden)
    require(hidden >= 1 && hidden <= 12,
            "estimator-calibration: trained hidden units must be 1..12 (9 + 12 units is the exact analysis' limit)");
  require(modes_hidden >= 1 && modes_hidden <= 4,
          "estimator-calibration: Modes hidden units must be 1..4 (16 + 4 units is the exact analysis' limit here)");
  require(training_updates >= 1, "estimator-calibration: training updates must be ≥ 1");
  require(!configurations.empty(), "estimator-calibration: at least one chain configuration");
  for (const ChainConfiguration& configuration : configurations) {
    require(configuration.chains >= 1 && configuration.steps >= 16,
            "estimator-calibration: a configuration needs ≥ 1 chain of ≥ 16 steps");
    require(configuration.superchains == 0 ||
                (configuration.superchains >= 2 && configuration.chains % configuration.superchains == 0),
            "estimator-calibration: " + to_string(configuration) +
                ": superchains must be 0 or at least 2 and divide the chains");
  }
  require(horizon_in_slowest_times > 0.0 && std::isfinite(horizon_in_slowest_times),
          "estimator-calibration: the horizon in slowest relaxation times must be positive");
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
    options.trained_hidden = {4};
    options.modes_rbms = 0;
    options.training_updates = 200;
    options.operators = {"gibbs", "flip"};
    options.configurations = {{4, 1000}, {4, 4000}, {32, 200, 4}};
    options.replicates = 2;
  } else {
    options.configurations.insert(options.configurations.begin() + 3, {64, 20000});
  }
  return options;
}

std::string to_string(const ChainConfiguration& configuration) {
  return std::to_string(configuration.chains) + "x" + std::to_string(configuration.steps) +
         (configuration.superchains > 0 ? "/" + std::to_string(configuration.superchains) : "");
}

nlohmann::json to_json(const EstimatorCalibrationOptions& options) {
  nlohmann::json configurations = nlohmann::json::array();
  for (const ChainConfiguration& configuration : options.configurations)
    configurations.push_back({{"chains", configuration.chains},
                              {"steps", configuration.steps},
                              {"superchains", configuration.superchains}});
  return {{"sizes", options.sizes},
          {"weight_bounds", options.weight_bounds},
          {"random_rbms_per_setting", options.random_rbms_per_setting},
          {"trained_rbms", options.trained_rbms},
          {"trained_data", "bars_and_stripes 3x3"},
          {"trained_hidden", options.trained_hidden},
          {"modes_rbms", options.modes_rbms},
          {"modes_data", "artificial_modes 4x4, p_mut 0.01, 1000 rows"},
          {"modes_hidden", options.modes_hidden},
          {"training", "CD-5 with G (even index) or T (odd), learning rate 0.1, full batch"},
          {"training_updates", options.training_updates},
          {"horizon_in_slowest_times", options.horizon_in_slowest_times},
          {"long_batch_in_cutoffs", analysis::long_batch_in_cutoffs},
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

enum class ModelFamily { random, bars_and_stripes, modes };

struct CalibrationModel {
  std::string name;
  ModelFamily family = ModelFamily::random;
  int size = 0;  // random RBMs: m = n = size, W ~ U[−bound, bound]
  int bound = 0;
  Eigen::Index hidden = 0;  // trained RBMs
  int index = 0;
};

std::vector<CalibrationModel> calibration_models(const EstimatorCalibrationOptions& options) {
  std::vector<CalibrationModel> models;
  for (const int size : options.sizes)
    for (const int bound : options.weight_bounds)
      for (int index = 0; index < options.random_rbms_per_setting; ++index)
        models.push_back(
            {"random m=n=" + std::to_string(size) + " c=" + std::to_string(bound) + " #" + std::to_string(index),
             ModelFamily::random, size, bound, 0, index});
  for (const Eigen::Index hidden : options.trained_hidden)
    for (int index = 0; index < options.trained_rbms; ++index)
      models.push_back({"bas3x3 h" + std::to_string(hidden) + " #" + std::to_string(index),
                        ModelFamily::bars_and_stripes, 0, 0, hidden, index});
  for (int index = 0; index < options.modes_rbms; ++index)
    models.push_back({"modes4x4 h" + std::to_string(options.modes_hidden) + " #" + std::to_string(index),
                      ModelFamily::modes, 0, 0, options.modes_hidden, index});
  return models;
}

// Trained by CD-5, full batch, as the demo trains, longer: on Bars & Stripes 3×3 a model whose energy
// autocorrelation falls fast and then decays slowly; on Artificial Modes (p_mut 0.01) one whose four modes the
// chains cross rarely.
Rbm trained_rbm(const EstimatorCalibrationOptions& options, const CalibrationModel& model, std::uint64_t seed) {
  const int index = model.index;
  const MatrixD data = model.family == ModelFamily::modes
                           ? to_real(artificial_modes(0.01, 1000, purpose_seed(seed, 0, SeedPurpose::data)).samples)
                           : to_real(bars_and_stripes(3));
  TrainingOptions training;
  apply_algorithm(training, Algorithm::cd);
  training.rule = index % 2 == 0 ? UnitRule{GibbsRule{}} : UnitRule{FlipTheStateRule{}};
  training.sampling_steps = 5;
  training.learning_rate = 0.1;
  training.updates = options.training_updates;
  training.evaluation_interval = 0;
  training.seed = seed;
  Trainer trainer(training, data, MatrixD(0, data.cols()), model.hidden);
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
  for (const CalibrationRun& run : job.runs) {
    nlohmann::json candidates = nlohmann::json::array();
    for (const LongBatchInterval& candidate : run.long_batch_candidates)
      candidates.push_back({exact_number(candidate.batch_in_cutoffs), exact_number(candidate.lower),
                            exact_number(candidate.upper)});
    runs.push_back({{"model", run.model},
                    {"operator", run.operator_name},
                    {"exact_time", exact_number(run.exact_time)},
                    {"slowest_time", exact_number(run.slowest_time)},
                    {"chains", run.configuration.chains},
                    {"steps", run.configuration.steps},
                    {"superchains", run.configuration.superchains},
                    {"replicate", run.replicate},
                    {"diagnostics", exact_diagnostics(run.diagnostics)},
                    {"nested_potential_scale_reduction", exact_number(run.nested_potential_scale_reduction)},
                    {"long_batch_candidates", candidates}});
  }
  return {{"skipped", job.skipped}, {"runs", runs}};
}

void from_grid_json(const nlohmann::json& json, OperatorJob& job) {
  job.skipped = json.at("skipped").get<bool>();
  job.runs.clear();
  for (const nlohmann::json& run : json.at("runs")) {
    CalibrationRun read{run.at("model").get<std::string>(),
                        run.at("operator").get<std::string>(),
                        read_exact_number(run.at("exact_time")),
                        read_exact_number(run.at("slowest_time")),
                        {run.at("chains").get<Eigen::Index>(), run.at("steps").get<Eigen::Index>(),
                         run.at("superchains").get<Eigen::Index>()},
                        run.at("replicate").get<int>(),
                        read_exact_diagnostics(run.at("diagnostics")),
                        read_exact_number(run.at("nested_potential_scale_reduction")),
                        {}};
    for (const nlohmann::json& candidate : run.at("long_batch_candidates"))
      read.long_batch_candidates.push_back({read_exact_number(candidate.at(0)), read_exact_number(candidate.at(1)),
                                            read_exact_number(candidate.at(2))});
    job.runs.push_back(std::move(read));
  }
}

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
    const Rbm rbm = model.family == ModelFamily::random
                        ? fig3_random_rbm(options.seed, model.size, model.bound, model.index)
                        : trained_rbm(options, model, model_seed);
    const analysis::OperatorSpecification specification = analysis::parse_operator_specification(name);
    OperatorJob out;
    const analysis::OperatorAnalysis analysis = analysis::analyse_operator(rbm, specification);
    const std::optional<double> exact = analysis.energy_autocorrelation_time;
    if (!exact || !(*exact > 0.0)) {
      out.skipped = true;
      return out;
    }
    // τ_exp = −1/ln SLEM, the time a chain takes to forget its start (docs/algorithms.md §2.5).
    const double slowest_time = analysis.slem.slem < 1.0 ? -1.0 / std::log(analysis.slem.slem)
                                                          : std::numeric_limits<double>::infinity();
    std::uint64_t draw = 0;
    for (const ChainConfiguration& configuration : options.configurations)
      for (int replicate = 0; replicate < options.replicates; ++replicate) {
        const EnergyTraceRequest request{specification.rule,
                                         configuration.steps,
                                         configuration.chains,
                                         options.burn_in,
                                         trial_seed(trial_seed(options.seed, job), draw++),
                                         false,
                                         {},
                                         configuration.superchains};
        const MatrixD traces = specification.modified ? sample_modified_sweep_energy_traces(rbm, request)
                                                      : sample_energy_traces(rbm, request);
        CalibrationRun run{model.name,   name,      *exact, slowest_time, configuration,
                           replicate,    analysis::mixing_diagnostics(traces, options.rule)};
        if (configuration.superchains > 0) {
          run.nested_potential_scale_reduction = analysis::rank_normalised_split_nested_potential_scale_reduction(
              traces, analysis::consecutive_superchains(traces.cols(), configuration.superchains));
          analysis::use_nested_potential_scale_reduction(run.diagnostics, run.nested_potential_scale_reduction,
                                                         options.rule);
        }
        const Eigen::Index cutoff = run.diagnostics.recommended().cutoff;
        for (const double factor : long_batch_factor_candidates) {
          const analysis::IntegratedTimeEstimate batches = analysis::batch_means_integrated_time(
              traces, analysis::long_batch_size(configuration.steps, cutoff, factor));
          run.long_batch_candidates.push_back({factor, batches.lower, batches.upper});
        }
        out.runs.push_back(std::move(run));
      }
    return out;
  });
  if (!results) return results.part_done();
  EstimatorCalibrationResult result;
  for (const OperatorJob& job : results.value()) {
    result.skipped_operators += job.skipped;
    result.runs.insert(result.runs.end(), job.runs.begin(), job.runs.end());
  }
  // The verdicts from the journaled signals under the options' rule, whichever rule a resumed journal was made under.
  for (CalibrationRun& run : result.runs) analysis::apply_trust_rule(run.diagnostics, options.rule);
  return result;
}

bool RunSelection::selects(const CalibrationRun& run) const {
  if (run.configuration.chains < min_chains) return false;
  if (configuration && run.configuration != *configuration) return false;
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

RunSelection goal_runs(const EstimatorCalibrationOptions& options) {
  return {multi_chain_runs, std::nullopt, options.horizon_in_slowest_times};
}

std::vector<RuleCandidate> rule_candidates(const EstimatorCalibrationResult& result, const analysis::TrustRule& base,
                                           const RunSelection& selection) {
  std::vector<RuleCandidate> candidates;
  for (const double width : {0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0, 1e9})
    for (const double disagreement : {1.5, 2.0, 2.5, 3.0, 4.0, 6.0, 1e9}) {
      analysis::TrustRule rule = base;
      rule.max_relative_half_width = width;
      rule.max_disagreement = disagreement;
      candidates.push_back({rule, score_estimators(result, rule, selection).back()});
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

std::vector<IntervalCandidateScore> interval_candidate_scores(const EstimatorCalibrationOptions& options,
                                                              const EstimatorCalibrationResult& result) {
  const RunSelection selection = goal_runs(options);
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
// with the nominal 95 % and the 90 % the trusted intervals must reach (docs/algorithms.md §6.7).
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

std::vector<ExperimentOption> EstimatorCalibration::own_options() {
  return {{"--replicates", "independent trace sets per (model, operator, chains x steps) (default: paper 4, smoke 2)"},
          {"--configurations",
           "chain configurations CHAINSxSTEPS[/SUPERCHAINS], comma-separated, e.g. 16x5000,256x500/16 (default: the scale's)"},
          {"--operators",
           "operators to run comma-separated (default: gibbs,flip,mix:0.5,unit-modified:0.5; smoke gibbs,flip)"},
          {"--random-rbms", "random RBMs per (m = n, c) (default: paper 2, smoke 1)"}};
}

namespace {

// "CHAINSxSTEPS" or "CHAINSxSTEPS/SUPERCHAINS", positive integers.
ChainConfiguration parse_configuration(const std::string& text) {
  const std::string form = "--configurations: '" + text + "' is not CHAINSxSTEPS or CHAINSxSTEPS/SUPERCHAINS (e.g. 16x5000, 256x500/16)";
  const std::size_t cross = text.find('x');
  const std::size_t slash = text.find('/');
  const auto positive = [&](const std::string& digits) {
    require(!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos && digits.size() < 10,
            form);
    return static_cast<Eigen::Index>(std::stoll(digits));
  };
  require(cross != std::string::npos && (slash == std::string::npos || slash > cross), form);
  ChainConfiguration configuration{positive(text.substr(0, cross)),
                                   positive(text.substr(cross + 1, slash == std::string::npos ? std::string::npos
                                                                                              : slash - cross - 1))};
  if (slash != std::string::npos) configuration.superchains = positive(text.substr(slash + 1));
  return configuration;
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
