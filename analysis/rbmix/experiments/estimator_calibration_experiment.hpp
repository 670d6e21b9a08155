#pragma once
// Experiment estimator-calibration (docs/algorithms.md §6.7): how far each estimator of the integrated
// autocorrelation time (integrated_autocorrelation_time.hpp) lands from the exact τ of the energy
// (exact_autocorrelation_time.hpp), how often its interval covers τ, and how well the trust rule separates the
// estimates that are off from those that are right. The population: random tiny RBMs m = n ∈ sizes with
// W ~ U[−c, c] and zero biases (003 Fig. 3's families, slem_sweep_rbm), and RBMs with `trained_hidden` hidden units
// trained on Bars & Stripes 3×3 by CD-5 with G (even index) or T (odd), as the demo's model (whose energy
// autocorrelations fall fast and then decay slowly); each under
// every operator of `operators`; for each chain configuration (chains × steps), `replicates` independent trace
// sets. Job = (model, operator); its randomness comes from trial_seed(seed, job index), so results do not depend on
// the thread count.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rbmix/analysis/integrated_autocorrelation_time.hpp"
#include "rbmix/experiments/experiment.hpp"
#include "rbmix/experiments/experiment_scale.hpp"
#include "rbmix/experiments/job_runner.hpp"
#include "rbmix/experiments/result_directory.hpp"
#include "rbmix/report/table.hpp"

namespace rbmix::experiments {

struct ChainConfiguration {
  Eigen::Index chains = 4;
  Eigen::Index steps = 1000;
};

struct EstimatorCalibrationOptions {
  std::vector<int> sizes{3, 4, 5};
  std::vector<int> weight_bounds{2, 6, 10};
  int random_rbms_per_setting = 2;
  int trained_rbms = 4;
  Eigen::Index trained_hidden = 9;
  std::int64_t training_updates = 5000;
  std::vector<std::string> operators{"gibbs", "flip", "mix:0.5", "unit-modified:0.5"};
  std::vector<ChainConfiguration> configurations{{1, 2000}, {4, 5000}, {16, 20000}};
  int replicates = 4;
  Eigen::Index burn_in = 1000;
  std::uint64_t seed = 1;
  analysis::TrustRule rule;
  // Throws InputError naming the option that is out of range.
  void validate() const;
};

// smoke: one random 3+3 RBM per c ∈ {1, 4}, one trained RBM (4 hidden, 200 updates), G and T, 4 × 1000 and 4 × 4000
// steps, 2 replicates — seconds. paper: the defaults above plus 64 × 20000 steps.
EstimatorCalibrationOptions estimator_calibration_options(Scale scale, std::uint64_t seed);
nlohmann::json to_json(const EstimatorCalibrationOptions& options);

// One trace set: the exact τ and everything mixing_diagnostics says about it.
struct CalibrationRun {
  std::string model;  // "random m=n c=C #I" or "bas3x3 trained #I"
  std::string operator_name;
  double exact_time = 0.0;
  ChainConfiguration configuration;
  int replicate = 0;
  analysis::MixingDiagnostics diagnostics;
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
// One score per estimator, then "all" pooling them; over the runs of at least `min_chains` chains, or, given
// `configuration`, over the runs of that chains × steps alone.
std::vector<EstimatorScore> score_estimators(const EstimatorCalibrationResult& result, const analysis::TrustRule& rule,
                                             Eigen::Index min_chains = 1,
                                             std::optional<ChainConfiguration> configuration = std::nullopt);
// Per run shape (chains × steps) and estimator: the coverage of the 95 % intervals, over every estimate and over the
// trusted ones (docs/algorithms.md §6.7), as estimator_calibration_coverage.csv holds it.
Table coverage_by_configuration_table(const EstimatorCalibrationOptions& options,
                                      const EstimatorCalibrationResult& result);
// The runs a researcher who follows docs/algorithms.md §6.7 makes: many chains from dispersed starts, so that R̂
// can see a mode that one chain never left. The scores are also reported over these runs alone.
inline constexpr Eigen::Index multi_chain_runs = 16;

// The calibration's goals for a trust rule (docs/algorithms.md §6.7).
inline constexpr double goal_flagged_far_share = 0.95;
inline constexpr double goal_flagged_close_share = 0.10;

// The rules tried: every (max_relative_half_width, max_disagreement) of a grid, R̂ and length thresholds fixed at
// `base`'s; per rule the pooled flagged shares. The chosen rule meets both goals on the pooled estimates with the
// fewest needless flags; if none does, the one that falls least short of them (the shortfalls summed).
struct RuleCandidate {
  analysis::TrustRule rule;
  EstimatorScore pooled;
};
std::vector<RuleCandidate> rule_candidates(const EstimatorCalibrationResult& result, const analysis::TrustRule& base);
std::size_t chosen_rule(const std::vector<RuleCandidate>& candidates);

Table estimator_score_table(const std::vector<EstimatorScore>& scores);

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
