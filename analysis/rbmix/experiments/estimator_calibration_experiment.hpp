#pragma once
// Experiment estimator-calibration (docs/algorithms/calibration.md §6.7): how far each estimator of the integrated
// autocorrelation time (integrated_autocorrelation_time.hpp) lands from the exact τ of the energy
// (exact_autocorrelation_time.hpp), how often its interval covers τ, and how well the trust rule separates the
// estimates that are off from those that are right. The population: random tiny RBMs m = n ∈ sizes with
// W ~ U[−c, c] and zero biases (003 Fig. 3's families, slem_sweep_rbm); RBMs with each of `trained_hidden` hidden
// units trained on Bars & Stripes 3×3 by CD-5 with G (even index) or T (odd), as the demo's model but longer (their
// energy autocorrelations fall fast and then decay slowly: the slow tails); and RBMs with `modes_hidden` hidden
// units trained the same way on Artificial Modes 4×4 with p_mut = 0.01 (rare mode switches). Each under every
// operator of `operators`; for each chain configuration (chains × steps, optionally in superchains), `replicates`
// independent trace sets. Job = (model, operator); its randomness comes from trial_seed(seed, job index), so results
// do not depend on the thread count. With `held_out`, a second population of other members of the same families (the
// held-out models: other random RBMs of each setting, BAS RBMs with `held_out_trained_hidden` hidden units, other
// Modes RBMs): the rule is chosen on the first set and reported on both, so that the goals are read on models the
// choice never saw (docs/algorithms/calibration.md §6.7).
#include <array>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rbmix/analysis/integrated_autocorrelation_time.hpp"
#include "rbmix/experiments/experiment.hpp"
#include "rbmix/jobs/experiment_scale.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/jobs/result_directory.hpp"
#include "rbmix/report/table.hpp"

namespace rbmix::experiments {

struct ChainConfiguration {
  Eigen::Index chains = 4;
  Eigen::Index steps = 1000;
  // ≥ 2: the chains run in this many superchains, the chains of one started from one state, and the trust rule
  // reads nested R̂ in place of R̂ (many short chains; docs/algorithms/mixing-metrics.md §6.5.1). 0: every chain its own
  // start.
  Eigen::Index superchains = 0;
  friend bool operator==(const ChainConfiguration&, const ChainConfiguration&) = default;
};
// "CHAINSxSTEPS" or "CHAINSxSTEPS/SUPERCHAINS", as --configurations and the tables write it.
std::string to_string(const ChainConfiguration& configuration);

struct EstimatorCalibrationOptions {
  std::vector<int> sizes{3, 4, 5};
  std::vector<int> weight_bounds{2, 6, 10};
  int random_rbms_per_setting = 2;
  int trained_rbms = 2;  // per entry of trained_hidden
  std::vector<Eigen::Index> trained_hidden{6, 9};
  int modes_rbms = 2;
  Eigen::Index modes_hidden = 2;
  std::int64_t training_updates = 20000;
  std::vector<std::string> operators{"gibbs", "flip", "mix:0.5", "unit-modified:0.5"};
  std::vector<ChainConfiguration> configurations{{1, 2000}, {4, 5000}, {16, 20000}, {256, 500, 16}};
  int replicates = 4;
  bool held_out = true;
  std::vector<Eigen::Index> held_out_trained_hidden{7, 8};  // trained_rbms of each
  Eigen::Index burn_in = 1000;
  std::uint64_t seed = 1;
  analysis::TrustRule rule;
  // A run is within its horizon when its chains are at least this many exact slowest relaxation times
  // τ_exp = −1/ln SLEM long: a mode the chains cannot have visited is beyond any estimate from the trace
  // (docs/algorithms/calibration.md §6.7).
  double horizon_in_slowest_times = 10.0;
  // Throws InputError naming the option that is out of range.
  void validate() const;
};

// smoke: one random 3+3 RBM per c ∈ {1, 4}, one trained BAS RBM (4 hidden, 200 updates), no Modes RBM, G and T,
// 4 × 1000, 4 × 4000 and 32 × 200 in 4 superchains, 2 replicates; held out the same with BAS of 3 hidden — seconds. paper: the defaults above plus
// 64 × 20000 steps.
EstimatorCalibrationOptions estimator_calibration_options(Scale scale, std::uint64_t seed);
nlohmann::json to_json(const EstimatorCalibrationOptions& options);

// One trace set: the exact τ and everything mixing_diagnostics says about it.
// The long batches' interval at one candidate factor (long_batch_size(N, T, factor)): what the calibration
// chooses analysis::long_batch_in_cutoffs by.
struct LongBatchInterval {
  double batch_in_cutoffs = 0.0;
  double lower = 0.0;
  double upper = 0.0;
};
inline constexpr std::array<double, 5> long_batch_factor_candidates{0.0, 2.0, 5.0, 10.0, 20.0};

// The name of a held-out model begins with this (the journal records the name, so the split needs no field of its own).
inline constexpr std::string_view held_out_prefix = "held-out ";

struct CalibrationRun {
  std::string model;  // "random m=n c=C #I", "bas3x3 hH #I" or "modes4x4 hH #I", after held_out_prefix when held out
  std::string operator_name;
  double exact_time = 0.0;
  double slowest_time = 0.0;  // exact τ_exp = −1/ln SLEM (∞ when SLEM rounds to 1)
  ChainConfiguration configuration;
  int replicate = 0;
  analysis::MixingDiagnostics diagnostics;  // with superchains, the rule applied to nested R̂
  double nested_potential_scale_reduction = std::numeric_limits<double>::quiet_NaN();  // superchain shapes
  std::vector<LongBatchInterval> long_batch_candidates;  // one per long_batch_factor_candidates
  bool within_horizon(double horizon_in_slowest_times) const {
    return static_cast<double>(configuration.steps) >= horizon_in_slowest_times * slowest_time;
  }
  bool held_out() const { return model.starts_with(held_out_prefix); }
};

struct EstimatorCalibrationResult {
  std::vector<CalibrationRun> runs;  // in (model, operator, configuration, replicate) order
  int skipped_operators = 0;         // (model, operator) pairs without an exact τ (numerically non-ergodic)
};

OrPartDone<EstimatorCalibrationResult> run_estimator_calibration(const EstimatorCalibrationOptions& options,
                                                                 const JobRunner& runner = JobRunner());

// Per estimator, under `rule`: runs, mean and sd of τ̂/τ − 1, interval coverage, the estimates > 20 % off and the
// share of them the rule flags, the estimates within 10 % and the share it flags needlessly.
struct EstimatorScore {
  std::string method;
  int estimates = 0;  // finite τ̂
  double mean_relative_error = 0.0;
  double sd_relative_error = 0.0;
  double coverage = 0.0;
  int far_off = 0;  // |τ̂/τ − 1| > 20 % (or no finite τ̂)
  int far_off_flagged = 0;
  int close = 0;  // |τ̂/τ − 1| ≤ 10 %
  int close_flagged = 0;
  int trusted = 0;
  int trusted_covered = 0;  // trusted estimates whose 95 % interval holds the exact τ
  // The coverage of the intervals of the estimates the rule trusts: what a reader of a trusted interval relies on.
  double trusted_coverage() const {
    return trusted > 0 ? static_cast<double>(trusted_covered) / trusted : std::nan("");
  }
  double flagged_far_share() const { return far_off > 0 ? static_cast<double>(far_off_flagged) / far_off : 1.0; }
  double flagged_close_share() const { return close > 0 ? static_cast<double>(close_flagged) / close : 0.0; }
};
// Which runs a score counts: those of at least `min_chains` chains, or, given `configuration`, of that shape alone;
// with `horizon_in_slowest_times`, only the runs within that horizon (CalibrationRun::within_horizon); given
// `held_out`, only the held-out models' runs (true) or only the others' (false).
struct RunSelection {
  Eigen::Index min_chains = 1;
  std::optional<ChainConfiguration> configuration;
  std::optional<double> horizon_in_slowest_times;
  std::optional<bool> held_out;
  bool selects(const CalibrationRun& run) const;
};
// One score per estimator, then "all" pooling them, over the selected runs.
std::vector<EstimatorScore> score_estimators(const EstimatorCalibrationResult& result, const analysis::TrustRule& rule,
                                             const RunSelection& selection = {});
// Per run shape (chains × steps) and estimator: the coverage of the 95 % intervals, over every estimate and over the
// trusted ones (docs/algorithms/calibration.md §6.7), as estimator_calibration_coverage.csv holds it.
Table coverage_by_configuration_table(const EstimatorCalibrationOptions& options,
                                      const EstimatorCalibrationResult& result);
// The runs a researcher who follows docs/algorithms/calibration.md §6.7 makes: many chains from dispersed starts, so
// that R̂ can see a mode that one chain never left. The scores are also reported over these runs alone, and over those
// of them within their horizon.
inline constexpr Eigen::Index multi_chain_runs = 16;

// The interval constructions compared (docs/algorithms/calibration.md §6.7): each estimator's own band alone, and the
// band joined with the long batches' interval at each candidate factor; per construction and estimator the coverage and
// the median relative half width over the runs of at least multi_chain_runs chains within their horizon.
struct IntervalCandidateScore {
  std::string construction;  // "band" or "band + long batches x F"
  std::string method;
  int estimates = 0;
  double coverage = 0.0;
  double median_relative_half_width = 0.0;
};
std::vector<IntervalCandidateScore> interval_candidate_scores(const EstimatorCalibrationOptions& options,
                                                              const EstimatorCalibrationResult& result);
// The construction chosen: the narrowest (median relative half width of the recommended estimator) under which every
// estimator's interval covers the exact τ in at least goal_coverage of the selected runs; if none does, the one
// whose worst estimator covers most. Its index in long_batch_factor_candidates, or nothing for the band alone.
inline constexpr double goal_coverage = 0.90;
std::optional<std::size_t> chosen_interval(const std::vector<IntervalCandidateScore>& scores);

// The calibration's goals for a trust rule (docs/algorithms/calibration.md §6.7).
inline constexpr double goal_flagged_far_share = 0.95;
inline constexpr double goal_flagged_close_share = 0.10;
// How far a score falls short of the two goals, the two shortfalls summed: 0 when it meets both.
double goal_shortfall(const EstimatorScore& score);

// The rules tried: every (max_relative_half_width, max_disagreement) of a grid, R̂ and length thresholds fixed at
// `base`'s; per rule the flagged shares of each estimator and pooled. A user reads one estimator's row, so the goals
// hold per estimator: the chosen rule meets both goals for every estimator with the fewest needless flags pooled; if
// none does, the one whose estimators fall least short of them (each estimator's shortfalls summed).
struct RuleCandidate {
  analysis::TrustRule rule;
  std::vector<EstimatorScore> scores;  // as score_estimators: one per estimator, then "all"
  const EstimatorScore& pooled() const { return scores.back(); }
};
// Scored over `selection`: the goals are the multi-chain runs' within their horizon (docs/algorithms/calibration.md
// §6.7).
std::vector<RuleCandidate> rule_candidates(const EstimatorCalibrationResult& result, const analysis::TrustRule& base,
                                           const RunSelection& selection);
// The runs the goals are for: at least multi_chain_runs chains, within the options' horizon; given `held_out`, of the
// held-out models alone (true) or of the others alone (false, the set the rule and the interval are chosen on).
RunSelection goal_runs(const EstimatorCalibrationOptions& options, std::optional<bool> held_out = std::nullopt);
std::size_t chosen_rule(const std::vector<RuleCandidate>& candidates);

Table estimator_score_table(const std::vector<EstimatorScore>& scores);
// Per set of models (the calibration set, then the held-out set) and estimator, over its goal runs under `rule`: the
// estimates > 20 % off and the share flagged, the estimates within 10 % and the share flagged, each share with its
// 95 % Wilson interval (binomial_interval.hpp), and whether the estimator meets both goals
// (estimator_calibration_held_out.csv; docs/algorithms/calibration.md §6.7).
Table trust_goals_table(const EstimatorCalibrationOptions& options, const EstimatorCalibrationResult& result,
                        const analysis::TrustRule& rule);

// `rbmix experiment estimator-calibration` (experiment.hpp).
struct EstimatorCalibration {
  static constexpr std::string_view name = "estimator-calibration";
  static constexpr std::string_view description =
      "Autocorrelation-time estimators and their trust rule against exact tau on tiny RBMs";
  static constexpr std::string_view mnist_help = "";
  static constexpr Scale default_scale = Scale::smoke;
  using Options = EstimatorCalibrationOptions;
  using Result = EstimatorCalibrationResult;
  static std::vector<ExperimentOption> own_options();
  static Options make_options(const ExperimentInputs& inputs);
  static nlohmann::json configuration(const Options& options);
  static OrPartDone<Result> run(const Options& options, const JobRunner& runner, std::ostream& log);
  static ExperimentReport report(const Options& options, const Result& result, ResultDirectory& out, std::ostream& log);
};

}  // namespace rbmix::experiments
