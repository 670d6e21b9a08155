#pragma once
// Experiment class-changes: 003 Tables 3 and 4 (docs/algorithms/data-and-figures.md §8, T3/T4). RBMs with 16 hidden
// units are trained with CD-5 (Gibbs) on Artificial Modes (p_mut 0.01 and 0.1); then, for the Gibbs operator G and
// flip-the-state T (rbmix/analysis/class_changes.hpp defines classes and changes):
//   Table 3: one chain per RBM from the all-ones visible state, `sequence_steps` sweeps: the number of class
//            changes in the sequence v_0 (the start), v_1, …;
//   Table 4: `starts` chains per RBM started at training samples drawn uniformly (with replacement): the number of
//            sweeps until the first class change, where v_0 is the training sample; chains without a change
//            within the cap are censored and counted at the cap (their share is reported).
// Medians and quartiles are over all RBMs (Table 3) or all chains of all RBMs (Table 4). Every (p_mut, trial) is
// one job seeded with trial_seed(seed, 1000·setting + trial), which seeds its data, training and chains.
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/experiments/experiment.hpp"
#include "rbmix/jobs/experiment_scale.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/jobs/result_directory.hpp"
#include "rbmix/training/parameter_initialisation.hpp"

namespace rbmix::experiments {

struct ClassChangesOptions {
  std::vector<double> mutation_probabilities{0.01, 0.1};
  Eigen::Index training_samples = 1000;
  int trials = 25;  // RBMs per p_mut
  std::int64_t updates = 20000;
  double learning_rate = 0.05;
  // 003 §4.2: weights and biases from N(0, 0.01²); smoke keeps rbmix's base-rate start.
  ParameterInitialisation initialisation{ParameterInitialisation::Biases::normal, 0.01};
  Eigen::Index sequence_steps = 10000;     // Table 3
  Eigen::Index starts = 1000;              // Table 4
  Eigen::Index first_change_cap = 100000;  // Table 4
  std::uint64_t seed = 1;
  // Throws InputError naming what is out of range.
  void validate() const;
};

// Paper as above; smoke: 3 RBMs per p_mut, 1000 updates, cap 10^4, base-rate initialisation.
ClassChangesOptions class_changes_options(Scale scale, std::uint64_t seed);
nlohmann::json to_json(const ClassChangesOptions& options);

struct OperatorClassChanges {
  long long changes = 0;                 // Table 3
  std::vector<long long> first_changes;  // Table 4, one per start; the cap when censored
  long long censored = 0;
};

struct ClassChangesTrial {
  std::size_t setting = 0;  // index into mutation_probabilities
  int trial = 0;
  std::array<OperatorClassChanges, 2> counts;  // G, T
};

struct ClassChangesResult {
  std::vector<ClassChangesTrial> trials;  // in (setting, trial) order
};

// One trial's job result as the job grid journals it (job_runner.hpp: GridSerializable).
nlohmann::json to_grid_json(const ClassChangesTrial& trial);
void from_grid_json(const nlohmann::json& json, ClassChangesTrial& trial);

OrPartDone<ClassChangesResult> run_class_changes(const ClassChangesOptions& options,
                                                 const JobRunner& runner = JobRunner());

// The q-quantile of `values` by linear interpolation (R's type 7).
double quantile(std::vector<long long> values, double q);

// Table 3 (p_mut, operator, rbms, q25, median, q75 of the class changes).
Table class_changes_table(const ClassChangesOptions& options, const ClassChangesResult& result);
// Table 4 (p_mut, operator, chains, q25, median, q75 of the first change, censored_share, cap).
Table first_class_change_table(const ClassChangesOptions& options, const ClassChangesResult& result);

// `rbmix experiment class-changes` (experiment.hpp).
struct ClassChanges {
  static constexpr std::string_view name = "class-changes";
  static constexpr std::string_view description =
      "003 Tables 3-4: class changes of G and T on Artificial Modes RBMs trained with CD-5";
  static constexpr std::string_view mnist_help = "";
  static constexpr Scale default_scale = Scale::smoke;
  using Options = ClassChangesOptions;
  using Result = ClassChangesResult;
  static std::vector<ExperimentOption> own_options();
  static Options make_options(const ExperimentInputs& inputs);
  static nlohmann::json configuration(const Options& options);
  static OrPartDone<Result> run(const Options& options, const JobRunner& runner, std::ostream& log);
  static ExperimentReport report(const Options& options, const Result& result, ResultDirectory& out, std::ostream& log);
};

}  // namespace rbmix::experiments
