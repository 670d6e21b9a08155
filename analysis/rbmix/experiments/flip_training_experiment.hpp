#pragma once
// Experiment flip-training: 003 Table 1 (docs/algorithms/data-and-figures.md §8, T1). RBMs are trained with CD_k, PCD_k
// and t-PT_k whose sampling uses the Gibbs operator G or the flip-the-state operator T, for several learning rates; the
// exact average log-likelihood of the training data is computed every evaluation_interval updates; per setting the
// median over trials of each run's maximum log-likelihood is reported for G and for T, with a two-sided Wilcoxon
// signed-rank test pairing G and T by trial (same initial weights). 003 §4.2: full batch on Bars & Stripes 4×4,
// 16 hidden units, no momentum or weight decay, 20 000 updates, 25 trials, η ∈ {0.01, 0.05, 0.1}.
// 003's second data set, MNIST with 10 hidden units and mini-batches of 100, runs with the same settings when the
// MNIST files are given (flip_training_mnist_options).
// The paper does not list which k and t its Table 1 used; rbmix runs CD_1, CD_10, PCD_1, PCD_10 and 10-PT_1 (and
// says so in the results).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/experiments/experiment.hpp"
#include "rbmix/jobs/experiment_scale.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/jobs/result_directory.hpp"
#include "rbmix/training/training_options.hpp"

namespace rbmix::experiments {

struct FlipTrainingSetting {
  Algorithm algorithm = Algorithm::cd;  // cd, pcd or pt
  int sampling_steps = 1;               // k
  int replicas = 1;                     // t (pt only)
  double learning_rate = 0.1;
  std::string name() const;  // "CD_1", "PCD_10", "10-PT_1"
};

struct FlipTrainingOptions {
  std::string data_name = "bars-and-stripes-4x4";
  BinaryMatrix data;
  int hidden = 16;
  int batch_size = 0;  // full batch
  // The rows the exact log-likelihood averages over; empty: all of `data`.
  BinaryMatrix evaluation_data;
  std::string evaluation_name = "all training rows";
  std::vector<FlipTrainingSetting> settings;
  int trials = 25;
  std::int64_t updates = 20000;
  std::int64_t evaluation_interval = 100;
  std::uint64_t seed = 1;  // trial t of every setting and operator trains with trial_seed(seed, t)
  // Throws InputError naming what is out of range.
  void validate() const;
};

// The options of `scale`: paper as above; smoke the same settings at η = 0.1 only, 3 trials, 300 updates.
FlipTrainingOptions flip_training_options(Scale scale, std::uint64_t seed);
nlohmann::json to_json(const FlipTrainingOptions& options);

// Evaluation rows of the MNIST setting: exact LL costs 2^10 × rows × 784 per evaluation, so 200 evaluations on all
// 60 000 training rows would dominate the run. A seeded random subset of 5000 estimates the training average with a
// standard error of 1/√5000 ≈ 1.4 % of the per-row spread of log p(v), and every run (G and T alike) is evaluated
// on the same rows, so the paired comparison is unaffected by which rows were drawn.
inline constexpr Eigen::Index mnist_evaluation_rows = 5000;
// The smoke scale trains on the first 500 training images only, for 100 updates, so that it runs in seconds.
inline constexpr Eigen::Index mnist_smoke_rows = 500;
inline constexpr std::int64_t mnist_smoke_updates = 100;

// 003's MNIST setting (§4.2): the training images of the MNIST files in `directory` (rbmix/data/mnist.hpp),
// binarised by threshold, v = [x/255 > 1/2] (docs/algorithms/data-and-figures.md §7; 003 does not say how it
// binarised), 10 hidden units, mini-batches of 100, and the settings, trials and updates of `scale` (smoke:
// mnist_smoke_rows and mnist_smoke_updates). The exact LL is evaluated on min(mnist_evaluation_rows, rows) training
// rows drawn without replacement with `seed`.
FlipTrainingOptions flip_training_mnist_options(Scale scale, std::uint64_t seed,
                                                const std::filesystem::path& directory);

struct FlipTrainingRun {
  std::size_t setting = 0;
  bool flip = false;  // operator T (else G)
  int trial = 0;
  double maximum_log_likelihood = 0.0;
  double final_log_likelihood = 0.0;
  bool diverged = false;
  std::vector<double> learning_curve;  // every evaluation_interval updates from 0
};

struct FlipTrainingRow {
  FlipTrainingSetting setting;
  double median_maximum_gibbs = 0.0;
  double median_maximum_flip = 0.0;
  double positive_rank_sum = 0.0;  // W+ of T − G
  double p_value = 1.0;            // two-sided
};

struct FlipTrainingResult {
  std::vector<FlipTrainingRun> runs;
  std::vector<FlipTrainingRow> rows;
  std::vector<std::int64_t> evaluation_updates;
};

OrPartDone<FlipTrainingResult> run_flip_training(const FlipTrainingOptions& options,
                                                 const JobRunner& runner = JobRunner());
// The experiment on several data sets (003 Table 1: BAS and MNIST) as one grid of jobs, so that a grid split over
// shards or ranks spreads every data set's runs at once; the results in the order of `data_sets`, each the same as
// run_flip_training(data_sets[k]).
OrPartDone<std::vector<FlipTrainingResult>> run_flip_training(const std::vector<FlipTrainingOptions>& data_sets,
                                                              const JobRunner& runner = JobRunner());

// 003 §5.2 calls a difference significant at p < 0.05.
inline constexpr double flip_training_significance_level = 0.05;

// The table of 003 Table 1, one row per setting: medians of G and T, their difference, W+, p and which is better.
Table flip_training_table(const FlipTrainingResult& result);

double median(std::vector<double> values);

// `rbmix experiment flip-training` (experiment.hpp).
struct FlipTraining {
  static constexpr std::string_view name = "flip-training";
  static constexpr std::string_view description = "003 Table 1: median maximum log-likelihood, G vs T, CD/PCD/PT";
  static constexpr std::string_view mnist_help =
      "also run 003's MNIST setting on the MNIST files in this directory: training images binarised by threshold "
      "(x/255 > 1/2), 10 hidden units, mini-batches of 100, exact LL on a random subset of 5000 training rows drawn "
      "with --seed (smoke: the first 500 images, 100 updates, all evaluated)";
  static constexpr Scale default_scale = Scale::smoke;
  using Options = std::vector<FlipTrainingOptions>;
  using Result = std::vector<FlipTrainingResult>;
  static std::vector<ExperimentOption> own_options();
  static Options make_options(const ExperimentInputs& inputs);
  static nlohmann::json configuration(const Options& options);
  static OrPartDone<Result> run(const Options& options, const JobRunner& runner, std::ostream& log);
  static ExperimentReport report(const Options& options, const Result& result, ResultDirectory& out, std::ostream& log);
};

}  // namespace rbmix::experiments
