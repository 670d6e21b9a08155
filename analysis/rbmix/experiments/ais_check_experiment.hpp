#pragma once
// Experiment ais-check: validates AIS (docs/algorithms/estimation.md §5) against exact log Z on enumerable models: the
// error log Ẑ − log Z and its band against the number K of intermediate distributions (linear schedule, and
// Salakhutdinov & Murray's schedule at paper scale), in float and in double; and the cost per distribution of float and
// double sampling on a 784×500 model, which is what decides the default precision. Reverse AIS (Burda et al. 2015)
// started from data rows is listed beside forward AIS as the (approximate) upper side. Models: Bars & Stripes 4×4 with
// 16 hidden units trained by CD-5, and 784×20 (trained by CD-1 on MNIST when the MNIST directory is given, else W ~
// N(0, 0.05²), b ~ N(−1, 1), c = 0, a stand-in of the same shape). It runs as two phases of the job grid
// (job_runner.hpp): the models (training, exact log Z), then every AIS run and the two timing runs, one job each; a job
// times itself on one core.
#include <cstdint>
#include <filesystem>
#include <map>
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

namespace rbmix::experiments {

struct AisCheckOptions {
  Eigen::Index particles = 100;
  std::vector<Eigen::Index> distribution_counts{10, 100, 1000, 10000};
  bool salakhutdinov_murray_schedule = true;   // also run S&M's schedule
  std::int64_t bars_training_updates = 5000;   // CD-5 on Bars & Stripes 4×4
  std::int64_t mnist_training_updates = 5000;  // CD-1 on MNIST (with mnist_directory only)
  std::filesystem::path mnist_directory;       // empty: the random 784×20 stand-in
  Eigen::Index timing_distributions = 2000;    // float against double on 784×500
  std::uint64_t seed = 1;
  // Throws InputError naming what is out of range.
  void validate() const;
};

// Paper as above; smoke: K ∈ {10, 100, 1000} without S&M's schedule, 1000 (MNIST 500) training updates, 200
// distributions for the timing.
AisCheckOptions ais_check_options(Scale scale, std::uint64_t seed, const std::filesystem::path& mnist_directory);
nlohmann::json to_json(const AisCheckOptions& options);

struct AisCheckRow {
  std::string model;
  std::string direction;  // forward or reverse_from_data
  bool single_precision = false;
  std::string schedule;
  Eigen::Index distributions = 0;
  double exact_log_partition = 0.0;
  double ais_log_partition = 0.0;
  double band_lower = 0.0;  // of the AIS estimate
  double band_upper = 0.0;
  double effective_sample_size = 0.0;
  double seconds = 0.0;
};

struct AisTimingRow {
  bool single_precision = false;
  double seconds = 0.0;
};

struct AisCheckResult {
  std::vector<AisCheckRow> rows;
  std::vector<AisTimingRow> timing;
  std::map<std::string, double> exact_seconds;  // per model, the time of exact log Z
};

OrPartDone<AisCheckResult> run_ais_check(const AisCheckOptions& options, const JobRunner& runner = JobRunner());

// model, direction, precision, schedule, distributions, exact_log_z, ais_log_z, error, band_lower, band_upper (both
// relative to the exact value), effective_sample_size, seconds.
Table ais_check_table(const AisCheckResult& result);
// precision, particles, distributions, seconds, milliseconds_per_distribution.
Table ais_timing_table(const AisCheckOptions& options, const AisCheckResult& result);

// `rbmix experiment ais-check` (experiment.hpp).
struct AisCheck {
  static constexpr std::string_view name = "ais-check";
  static constexpr std::string_view description = "AIS against exact log Z: error against the number of distributions";
  static constexpr std::string_view mnist_help = "MNIST directory (IDX files); else a random 784×20 model";
  static constexpr Scale default_scale = Scale::smoke;
  using Options = AisCheckOptions;
  using Result = AisCheckResult;
  static std::vector<ExperimentOption> own_options();
  static Options make_options(const ExperimentInputs& inputs);
  static nlohmann::json configuration(const Options& options);
  static OrPartDone<Result> run(const Options& options, const JobRunner& runner, std::ostream& log);
  static ExperimentReport report(const Options& options, const Result& result, ResultDirectory& out, std::ostream& log);
};

}  // namespace rbmix::experiments
