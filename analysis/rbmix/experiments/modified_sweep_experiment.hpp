#pragma once
// Experiment modified-sweep (docs/algorithms/data-and-figures.md §8): the per-unit modified rule `unit-modified:γ` (the
// modified matrix of 001 §3 applied to each unit's Gibbs kernel, λ = γ·min(p, 1 − p); docs/algorithms/operators.md
// §2.4) as a family between Gibbs sampling G (γ = 0) and flip-the-state T (γ = 1 off ties), beside T and the mixture
// T^α.
//   - Random RBMs of 003 Fig. 3 (the slem-sweep RBMs: m = n = size, W ~ U[−c, c], biases 0): exact SLEM and exact
//     integrated autocorrelation time of the energy of every operator (dense up to 2^10 joint states, matrix-free
//     beyond), and per (size, c) the best γ and how often some γ beats both G and T. One job per RBM.
//   - Trained RBMs (BAS 4×4 with 16 hidden units; MNIST with 10 hidden units when the MNIST directory is given),
//     trained as in the autocorr experiment (20-PT10 with Gibbs sweeps; same trial seeds, so the same models):
//     the energy's integrated autocorrelation time under G, T, T^α and unit-modified:γ by the estimators of
//     docs/algorithms/mixing-metrics.md §6. One job per (setting, trial).
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "rbmix/analysis/integrated_autocorrelation_time.hpp"
#include "rbmix/core/types.hpp"
#include "rbmix/experiments/experiment.hpp"
#include "rbmix/experiments/random_rbm_family.hpp"
#include "rbmix/experiments/table2_rbms.hpp"
#include "rbmix/jobs/experiment_scale.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/jobs/result_directory.hpp"
#include "rbmix/report/table.hpp"
#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix::experiments {

struct ModifiedSweepOptions {
  Fig3RbmFamily family;                                                               // the random RBMs
  std::vector<double> shifts{0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};  // γ on the random RBMs
  double mixture_weight = 0.5;                                                        // α of T^α
  std::vector<Table2Setting> trained;  // autocorr's settings, numbers and trial seeds: the same trained RBMs
  std::vector<double> trained_shifts{0.25, 0.5, 0.75, 0.9};  // γ on the trained RBMs
  double learning_rate = 0.05;
  ParameterInitialisation initialisation;  // as autocorr's at the same scale
  std::string mnist_skipped;               // why the MNIST setting is left out; empty when it runs
  std::uint64_t seed = 1;
  // Throws InputError naming the option that is out of range.
  void validate() const;
};

// Paper: m = n ∈ {2, 3, 4}, c = 1..10, 100 RBMs each, γ = 0, 0.1, …, 1; trained: 10 RBMs per setting, 20 000
// updates, 10^5 sweeps per operator. Smoke: m = n ∈ {2, 3}, 3 RBMs each, γ ∈ {0, 0.5, 1}; BAS only, 1 RBM, 100
// updates, 2000 sweeps, γ = 0.5. The MNIST setting exists only when `mnist` names the MNIST directory.
ModifiedSweepOptions modified_sweep_options(Scale scale, std::uint64_t seed, const std::filesystem::path& mnist);
nlohmann::json to_json(const ModifiedSweepOptions& options);

// The operators of the random RBMs: G, T, T^α, then unit-modified:γ for every γ of `shifts`.
std::vector<UnitRule> modified_sweep_random_operators(const ModifiedSweepOptions& options);
// The operators of the trained RBMs: G, T, T^α, then unit-modified:γ for every γ of `trained_shifts`.
std::vector<UnitRule> modified_sweep_trained_operators(const ModifiedSweepOptions& options);

struct ModifiedSweepRbm {
  int size = 0;
  int weight_bound = 0;
  int index = 0;
  std::vector<double> slem;  // per random operator; 1 for a non-ergodic one
  std::vector<double> tau;   // exact energy τ per random operator; NaN where there is none
};

struct ModifiedSweepTrainedTrial {
  std::size_t setting = 0;
  int trial = 0;
  std::vector<std::vector<analysis::IntegratedTimeEstimate>> estimates;  // per trained operator, every estimator
};

struct ModifiedSweepResult {
  std::vector<ModifiedSweepRbm> rbms;              // in (size, c, index) order
  std::vector<ModifiedSweepTrainedTrial> trained;  // in (setting, trial) order
};

// Job results as the job grid journals them (job_runner.hpp: GridSerializable).
nlohmann::json to_grid_json(const ModifiedSweepRbm& rbm);
void from_grid_json(const nlohmann::json& json, ModifiedSweepRbm& rbm);
nlohmann::json to_grid_json(const ModifiedSweepTrainedTrial& trial);
void from_grid_json(const nlohmann::json& json, ModifiedSweepTrainedTrial& trial);

// The random RBMs (phase 0), then the trained ones (phase 1), each in parallel over jobs (JobRunner).
OrPartDone<ModifiedSweepResult> run_modified_sweep(const ModifiedSweepOptions& options,
                                                   const JobRunner& runner = JobRunner());

// Per (size, c): mean SLEM and median τ of G, T and T^α, the γ with the smallest mean SLEM and the γ with the
// smallest median τ with those values, and the share of RBMs where some γ is below both G and T (SLEM, τ).
Table modified_sweep_summary_table(const ModifiedSweepOptions& options, const ModifiedSweepResult& result);
// Per trained setting, operator and estimator: mean τ over the trials and the RBMs whose estimate is untrusted.
Table modified_sweep_trained_table(const ModifiedSweepOptions& options, const ModifiedSweepResult& result);

// `rbmix experiment modified-sweep` (experiment.hpp).
struct ModifiedSweep {
  static constexpr std::string_view name = "modified-sweep";
  static constexpr std::string_view description =
      "unit-modified:γ between G and T: SLEM and energy τ against γ, random and trained RBMs";
  static constexpr std::string_view mnist_help =
      "also sample RBMs trained on the MNIST files in this directory (stochastic binarisation, 10 hidden units, "
      "mini-batches of 100, as the autocorr experiment)";
  static constexpr Scale default_scale = Scale::smoke;
  using Options = ModifiedSweepOptions;
  using Result = ModifiedSweepResult;
  static std::vector<ExperimentOption> own_options();
  static Options make_options(const ExperimentInputs& inputs);
  static nlohmann::json configuration(const Options& options);
  static OrPartDone<Result> run(const Options& options, const JobRunner& runner, std::ostream& log);
  static ExperimentReport report(const Options& options, const Result& result, ResultDirectory& out, std::ostream& log);
};

}  // namespace rbmix::experiments
