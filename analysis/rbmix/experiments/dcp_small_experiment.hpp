#pragma once
// Experiment dcp-small: 002 §4.2.1 (docs/algorithms/data-and-figures.md §8, D1). RBMs with 4 hidden units are trained
// full batch on Bars & Stripes 3×3 and Shifting Bar 9/1 with CD-12, PCD-12, CG (centered CD-12), S-DCP and CS-DCP (d =
// 3, K' = 4: the same 12 sweeps per update), η ∈ {0.3, 0.5}, 25 trials, 50 000 epochs, no momentum or weight decay. The
// average log-likelihood of the data (002's "ATLL": the small data sets are their own test sets) is computed exactly;
// per curve the mean over trials is reported against epochs (= updates, full batch) with the best possible value, and
// the first epoch at which the mean curve has gone 90 % of the way from its start to its maximum.
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
#include "rbmix/sampling/unit_rule.hpp"
#include "rbmix/training/training_options.hpp"

namespace rbmix::experiments {

struct DcpDataSet {
  std::string name;
  BinaryMatrix data;
  double best_log_likelihood = 0.0;  // −entropy of the data
};

struct DcpSmallOptions {
  std::vector<DcpDataSet> data_sets;
  std::vector<Algorithm> algorithms{Algorithm::cd, Algorithm::pcd, Algorithm::cg, Algorithm::sdcp, Algorithm::csdcp};
  std::vector<double> learning_rates{0.3, 0.5};
  UnitRule rule = GibbsRule{};
  int hidden = 4;
  int sweeps = 12;       // K of CD/PCD/CG
  int inner_steps = 3;   // d of S-DCP / CS-DCP
  int inner_sweeps = 4;  // K'
  int trials = 25;
  std::int64_t epochs = 50000;  // 002 §4.2: "50000 epochs for the small datasets"
  std::int64_t evaluation_interval = 50;
  std::uint64_t seed = 1;  // trial t of every curve trains with trial_seed(seed, t)
  // Throws InputError naming what is out of range.
  void validate() const;
};

// Paper as above; smoke: 3 trials, 200 epochs, evaluation every 20.
DcpSmallOptions dcp_small_options(Scale scale, std::uint64_t seed);
nlohmann::json to_json(const DcpSmallOptions& options);

struct DcpCurve {
  std::size_t data_set = 0;
  Algorithm algorithm = Algorithm::cd;
  double learning_rate = 0.0;
  std::vector<double> mean_log_likelihood;  // over trials, at every evaluation
  double maximum = 0.0;                     // of the mean curve
  double final = 0.0;
  std::int64_t epoch_to_90_percent = 0;
  int diverged_trials = 0;
};

struct DcpSmallResult {
  std::vector<std::int64_t> evaluation_epochs;
  std::vector<DcpCurve> curves;
};

OrPartDone<DcpSmallResult> run_dcp_small(const DcpSmallOptions& options, const JobRunner& runner = JobRunner());

// "CD-12", "PCD-12", "CG", "S-DCP", "CS-DCP" (the names of 002's figures).
std::string dcp_algorithm_label(Algorithm algorithm);
// data, best_possible, algorithm, learning_rate, max_mean_atll, final_mean_atll, epoch_to_90_percent,
// diverged_trials.
Table dcp_small_summary_table(const DcpSmallOptions& options, const DcpSmallResult& result);

// The first epoch at which `curve` (sampled at `epochs`) reaches start + 0.9 (max − start).
std::int64_t epoch_to_fraction_of_maximum(const std::vector<double>& curve, const std::vector<std::int64_t>& epochs,
                                          double fraction);

// `rbmix experiment dcp-small` (experiment.hpp).
struct DcpSmall {
  static constexpr std::string_view name = "dcp-small";
  static constexpr std::string_view description = "002 §4.2.1: CD, PCD, CG vs S-DCP, CS-DCP on small data";
  static constexpr std::string_view mnist_help = "";
  static constexpr Scale default_scale = Scale::smoke;
  using Options = DcpSmallOptions;
  using Result = DcpSmallResult;
  static std::vector<ExperimentOption> own_options();
  static Options make_options(const ExperimentInputs& inputs);
  static nlohmann::json configuration(const Options& options);
  static OrPartDone<Result> run(const Options& options, const JobRunner& runner, std::ostream& log);
  static ExperimentReport report(const Options& options, const Result& result, ResultDirectory& out, std::ostream& log);
};

}  // namespace rbmix::experiments
