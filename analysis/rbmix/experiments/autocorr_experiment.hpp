#pragma once
// Experiment autocorr: 003 Table 2 and Fig. 4 (docs/algorithms/data-and-figures.md §8, T2). RBMs trained with 20-PT10
// (Gibbs sampling in the training chains) are sampled by one chain with the Gibbs operator G and one with
// flip-the-state T; the integrated autocorrelation time of the energy is estimated by the AR model (003's method) and
// by the two other estimators of docs/algorithms/mixing-metrics.md §6; gain = 1 − mean τ_T / mean τ_G. Settings: Bars &
// Stripes 4×4 and Artificial Modes (p_mut 0.01 and 0.1) with 16 hidden units; MNIST with 10 hidden units and with 500
// hidden units (2000 updates) when the MNIST directory is given. Every (setting, trial) is one job seeded with
// trial_seed(seed, 1000·setting number + trial).
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "rbmix/analysis/integrated_autocorrelation_time.hpp"
#include "rbmix/core/types.hpp"
#include "rbmix/experiments/experiment.hpp"
#include "rbmix/experiments/table2_rbms.hpp"
#include "rbmix/jobs/experiment_scale.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/jobs/result_directory.hpp"
#include "rbmix/model/rbm.hpp"
#include "rbmix/training/parameter_initialisation.hpp"

namespace rbmix::experiments {

struct AutocorrOptions {
  std::vector<Table2Setting> settings;
  double learning_rate = 0.05;
  // 003 §4.2: weights and biases from N(0, 0.01²); smoke keeps rbmix's base-rate start.
  ParameterInitialisation initialisation{ParameterInitialisation::Biases::normal, 0.01};
  std::uint64_t seed = 1;
  // Throws InputError naming what is out of range.
  void validate() const;
};

// Values that replace the scale's defaults in every setting; 0: the scale's.
struct AutocorrOverrides {
  int trials = 0;
  std::int64_t updates = 0;
  Eigen::Index steps = 0;
  std::vector<std::string> only;  // names of the settings to run; empty: all
  std::optional<ParameterInitialisation> initialisation;
};

// Paper: 25 RBMs per setting, 20 000 updates, 10^6 sweeps per chain (MNIST 500 hidden: 24 RBMs, 2000 updates);
// smoke: 2 RBMs, 500 updates, 20 000 sweeps (MNIST 500 hidden: 1 RBM, 20 updates, 2000 sweeps), base-rate
// initialisation. The MNIST settings
// exist only when `mnist` names the MNIST directory.
AutocorrOptions autocorr_options(Scale scale, std::uint64_t seed, const std::filesystem::path& mnist,
                                 const AutocorrOverrides& overrides);
nlohmann::json to_json(const AutocorrOptions& options);

// Lags of the averaged autocorrelation function that are written and plotted.
inline constexpr Eigen::Index autocorr_reported_lags = 100;

struct AutocorrOperatorResult {
  std::vector<analysis::IntegratedTimeEstimate> estimates;
  VectorD autocorrelation;  // lags 0..min(autocorr_reported_lags, steps − 1)
};

struct AutocorrTrial {
  std::size_t setting = 0;
  int trial = 0;
  double train_seconds = 0.0;
  AutocorrOperatorResult gibbs, flip;
};

struct AutocorrResult {
  std::vector<AutocorrTrial> trials;  // in (setting, trial) order
};

// One trial's job result as the job grid journals it (job_runner.hpp: GridSerializable).
nlohmann::json to_grid_json(const AutocorrTrial& trial);
void from_grid_json(const nlohmann::json& json, AutocorrTrial& trial);

OrPartDone<AutocorrResult> run_autocorr(const AutocorrOptions& options, const JobRunner& runner = JobRunner());

// 003 Table 2: per setting and estimator (the recommended one first, marked headline), the mean τ of G and T over
// the trials whose G and T estimates are both trusted, the gain 1 − τ_T/τ_G in percent and the two-sided p of the
// Wilcoxon signed-rank test of the same pairs (003 §5.2); how many trials were excluded, and the kinds of reason
// (method_warning, rhat, short_chain, wide_interval, cross_check) counted per operator.
Table autocorr_summary_table(const AutocorrOptions& options, const AutocorrResult& result);

// `rbmix experiment autocorr` (experiment.hpp).
struct Autocorr {
  static constexpr std::string_view name = "autocorr";
  static constexpr std::string_view description =
      "003 Table 2: autocorrelation times of G and T on RBMs trained with 20-PT10";
  static constexpr std::string_view mnist_help =
      "MNIST directory (IDX files); MNIST settings run only with it. --scale smoke: at most 10 000 rows, 50 updates "
      "(10 hidden) and one 500-hidden RBM of 5 updates with 1000 recorded sweeps";
  static constexpr Scale default_scale = Scale::smoke;
  using Options = AutocorrOptions;
  using Result = AutocorrResult;
  static std::vector<ExperimentOption> own_options();
  static Options make_options(const ExperimentInputs& inputs);
  static nlohmann::json configuration(const Options& options);
  static OrPartDone<Result> run(const Options& options, const JobRunner& runner, std::ostream& log);
  static ExperimentReport report(const Options& options, const Result& result, ResultDirectory& out, std::ostream& log);
};

}  // namespace rbmix::experiments
