#include "rbmix/experiments/ais_check_experiment.hpp"

#include <algorithm>
#include <chrono>

#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/data/mnist.hpp"
#include "rbmix/estimation/ais.hpp"
#include "rbmix/experiments/exact_number.hpp"
#include "rbmix/jobs/job_progress.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/model/exact.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix::experiments {

void AisCheckOptions::validate() const {
  require(particles > 0, "ais-check: the number of particles must be positive");
  require(!distribution_counts.empty(), "ais-check: no numbers of distributions");
  for (const Eigen::Index count : distribution_counts)
    require(count >= 1, "ais-check: numbers of distributions must be positive");
  require(bars_training_updates > 0 && mnist_training_updates > 0, "ais-check: training updates must be positive");
  require(timing_distributions >= 1, "ais-check: the timing needs at least one distribution");
}

AisCheckOptions ais_check_options(Scale scale, std::uint64_t seed, const std::filesystem::path& mnist_directory) {
  AisCheckOptions options;
  if (scale == Scale::smoke) {
    options.distribution_counts = {10, 100, 1000};
    options.salakhutdinov_murray_schedule = false;
    options.bars_training_updates = 1000;
    options.mnist_training_updates = 500;
    options.timing_distributions = 200;
  }
  options.mnist_directory = mnist_directory;
  options.seed = seed;
  return options;
}

nlohmann::json to_json(const AisCheckOptions& options) {
  return {{"particles", options.particles},
          {"distribution_counts", options.distribution_counts},
          {"salakhutdinov_murray_schedule", options.salakhutdinov_murray_schedule},
          {"bars_training_updates", options.bars_training_updates},
          {"mnist_training_updates", options.mnist_training_updates},
          {"mnist", options.mnist_directory.string()},
          {"timing_model", "784x500, W ~ N(0, 0.01^2), zero biases"},
          {"timing_distributions", options.timing_distributions}};
}

namespace {

struct CheckModel {
  std::string name;
  Rbm rbm;
  VectorD base_bias;
  MatrixD reverse_start;  // data rows (drawn with replacement) that start reverse AIS; empty without data
  double exact_log_partition = 0.0;
  double exact_seconds = 0.0;
};

nlohmann::json to_grid_json(const CheckModel& model) {
  return {{"name", model.name},
          {"rbm", exact_rbm(model.rbm)},
          {"base_bias", exact_vector(model.base_bias)},
          {"reverse_start", exact_matrix(model.reverse_start)},
          {"exact_log_partition", exact_number(model.exact_log_partition)},
          {"exact_seconds", exact_number(model.exact_seconds)}};
}

void from_grid_json(const nlohmann::json& json, CheckModel& model) {
  const JournaledValue journaled(json);
  model.name = journaled["name"].text();
  model.rbm = journaled["rbm"].read(read_exact_rbm);
  model.base_bias = journaled["base_bias"].read(read_exact_vector);
  journaled["base_bias"].require_that(model.base_bias.size() == model.rbm.n_visible() && model.base_bias.allFinite(),
                                      "not a finite bias per visible unit of the RBM");
  model.reverse_start = journaled["reverse_start"].read(read_exact_matrix);
  journaled["reverse_start"].require_that(
      model.reverse_start.size() == 0 ||
          (model.reverse_start.cols() == model.rbm.n_visible() && model.reverse_start.allFinite()),
      "not finite rows of the RBM's visible units");
  model.exact_log_partition = journaled["exact_log_partition"].finite();
  model.exact_seconds = journaled["exact_seconds"].at_least(0.0);
}

// One AIS run of the second phase: on a check model, or (model = timing_run) on the 784×500 timing model.
struct AisRun {
  static constexpr std::size_t timing_run = static_cast<std::size_t>(-1);
  std::size_t model = 0;
  bool reverse = false;
  bool single_precision = false;
  AisSchedule schedule = AisSchedule::linear;
  Eigen::Index distributions = 0;
};

struct AisRunResult {
  Eigen::Index distributions = 0;
  double log_partition = 0.0, lower = 0.0, upper = 0.0, effective_sample_size = 0.0, seconds = 0.0;
};

nlohmann::json to_grid_json(const AisRunResult& result) {
  return {{"distributions", result.distributions},
          {"log_partition", exact_number(result.log_partition)},
          {"lower", exact_number(result.lower)},
          {"upper", exact_number(result.upper)},
          {"effective_sample_size", exact_number(result.effective_sample_size)},
          {"seconds", exact_number(result.seconds)}};
}

void from_grid_json(const nlohmann::json& json, AisRunResult& result) {
  const JournaledValue journaled(json);
  result.distributions = journaled["distributions"].integer<Eigen::Index>(0);
  result.log_partition = journaled["log_partition"].finite();
  // An end of the interval is infinite where the weights' lower bound is not positive (estimation/ais.hpp: −∞
  // below, or +∞ above for reverse AIS); a NaN end fails both comparisons.
  result.lower = journaled["lower"].number();
  result.upper = journaled["upper"].number();
  journaled["lower"].require_that(result.lower <= result.log_partition, "not at most the estimate");
  journaled["upper"].require_that(result.upper >= result.log_partition, "not at least the estimate");
  result.effective_sample_size = journaled["effective_sample_size"].at_least(0.0);
  result.seconds = journaled["seconds"].at_least(0.0);
}

MatrixD rows_with_replacement(const MatrixD& data, Eigen::Index rows, std::uint64_t seed) {
  RandomStream stream(seed, 2, StreamDomain::experiment);
  MatrixD out(rows, data.cols());
  for (Eigen::Index row = 0; row < rows; ++row)
    out.row(row) = data.row(static_cast<Eigen::Index>(stream.below(static_cast<std::uint64_t>(data.rows()))));
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Rbm train(const MatrixD& data, Eigen::Index hidden, int k, double learning_rate, int batch, std::int64_t updates,
          std::uint64_t seed, const JobProgress& progress) {
  TrainingOptions options;
  options.negative_phase = NegativePhaseKind::contrastive_divergence;
  options.sampling_steps = k;
  options.learning_rate = learning_rate;
  options.batch_size = batch;
  options.updates = updates;
  options.evaluation_interval = 0;
  options.seed = seed;
  Trainer trainer(options, data, MatrixD(0, data.cols()), hidden);
  TrainingHooks hooks;
  hooks.on_update = progress.training(options.updates);
  trainer.run(hooks);
  return trainer.model();
}

// Check model `index` (0: Bars & Stripes, 1: MNIST or its random stand-in), trained, with its exact log Z.
CheckModel check_model(const AisCheckOptions& options, std::size_t index, const JobProgress& progress) {
  CheckModel model;
  if (index == 0) {
    const MatrixD bars = to_real(bars_and_stripes(4));
    model = {"bas4x4_16h_cd5", train(bars, 16, 5, 0.1, 0, options.bars_training_updates, options.seed, progress),
             base_rate_visible_bias(bars), rows_with_replacement(bars, options.particles, options.seed)};
  } else if (!options.mnist_directory.empty()) {
    const LabelledImages images = load_mnist(options.mnist_directory, MnistPart::train);
    // At most 10 000 rows and mini-batches of 100, fewer where the directory holds fewer images.
    const MatrixD all_digits = to_real(stochastic_binarize(images.images.pixels, options.seed));
    const MatrixD digits = all_digits.topRows(std::min<Eigen::Index>(10000, all_digits.rows()));
    const auto batch = static_cast<int>(std::min<Eigen::Index>(100, digits.rows()));
    model = {"mnist_784x20_cd1",
             train(digits, 20, 1, 0.05, batch, options.mnist_training_updates, options.seed, progress),
             base_rate_visible_bias(digits), rows_with_replacement(digits, options.particles, options.seed)};
  } else {
    RandomStream stream(options.seed, 0, StreamDomain::experiment);
    Rbm rbm(784, 20);
    rbm.weights = MatrixD::NullaryExpr(20, 784, [&] { return 0.05 * stream.normal(); });
    rbm.visible_bias = VectorD::NullaryExpr(784, [&] { return stream.normal() - 1.0; });
    model = {"random_784x20", rbm, rbm.visible_bias, MatrixD(0, 784)};
  }
  const auto exact_start = std::chrono::steady_clock::now();
  model.exact_log_partition = exact_log_partition(model.rbm);
  model.exact_seconds = seconds_since(exact_start);
  return model;
}

// The 784×500 model whose sampling cost decides the default precision.
Rbm timing_model(const AisCheckOptions& options) {
  RandomStream stream(options.seed, 1, StreamDomain::experiment);
  Rbm large(784, 500);
  large.weights = MatrixD::NullaryExpr(500, 784, [&] { return 0.01 * stream.normal(); });
  return large;
}

AisRunResult run_ais(const AisCheckOptions& options, const std::vector<CheckModel>& models, const AisRun& run) {
  AisOptions ais;
  ais.particles = options.particles;
  ais.distributions = run.distributions;
  ais.schedule = run.schedule;
  ais.single_precision = run.single_precision;
  AisRunResult result;
  if (run.model == AisRun::timing_run) {
    const Rbm large = timing_model(options);
    const auto start = std::chrono::steady_clock::now();
    ais_log_partition(large, ais);
    result.seconds = seconds_since(start);
    return result;
  }
  const CheckModel& model = models[run.model];
  ais.seed = options.seed;
  ais.base_visible_bias = model.base_bias;
  const auto start = std::chrono::steady_clock::now();
  const AisResult estimate =
      run.reverse ? reverse_ais_log_partition(model.rbm, model.reverse_start, ais) : ais_log_partition(model.rbm, ais);
  result = {estimate.distributions,       estimate.log_partition,         estimate.log_partition_lower,
            estimate.log_partition_upper, estimate.effective_sample_size, seconds_since(start)};
  return result;
}

}  // namespace

OrPartDone<AisCheckResult> run_ais_check(const AisCheckOptions& options, const JobRunner& runner) {
  options.validate();
  // Two phases of the job grid: the check models (training and exact log Z), then every AIS run on them and the
  // two timing runs, each its own job.
  const auto trained_models = run_jobs(runner, JobPhase{0}, 2, [&](std::size_t index, const JobProgress& progress) {
    return check_model(options, index, progress);
  });
  if (!trained_models) return trained_models.part_done();
  const std::vector<CheckModel>& models = trained_models.value();
  std::vector<AisRun> runs;
  for (std::size_t model = 0; model < models.size(); ++model)
    // Forward AIS in float and double; reverse AIS from data rows in float (approximate: data are not model
    // samples), which should land above the exact value where forward AIS lands below.
    for (const auto& [reverse, single] : {std::pair{false, true}, std::pair{false, false}, std::pair{true, true}}) {
      if (reverse && models[model].reverse_start.rows() == 0) continue;
      for (const Eigen::Index count : options.distribution_counts)
        runs.push_back({model, reverse, single, AisSchedule::linear, count});
      if (options.salakhutdinov_murray_schedule)
        runs.push_back({model, reverse, single, AisSchedule::salakhutdinov_murray, 0});
    }
  for (const bool single : {true, false})
    runs.push_back({AisRun::timing_run, false, single, AisSchedule::linear, options.timing_distributions});
  const auto estimates = run_jobs(runner, JobPhase{1}, runs.size(),
                                  [&](std::size_t index) { return run_ais(options, models, runs[index]); });
  if (!estimates) return estimates.part_done();

  AisCheckResult result;
  for (const CheckModel& model : models) result.exact_seconds[model.name] = model.exact_seconds;
  for (std::size_t index = 0; index < runs.size(); ++index) {
    const AisRun& run = runs[index];
    const AisRunResult& estimate = estimates.value()[index];
    if (run.model == AisRun::timing_run) {
      result.timing.push_back({run.single_precision, estimate.seconds});
      continue;
    }
    const CheckModel& model = models[run.model];
    result.rows.push_back({model.name, run.reverse ? "reverse_from_data" : "forward", run.single_precision,
                           to_string(run.schedule), estimate.distributions, model.exact_log_partition,
                           estimate.log_partition, estimate.lower, estimate.upper, estimate.effective_sample_size,
                           estimate.seconds});
  }
  return result;
}

Table ais_check_table(const AisCheckResult& result) {
  Table table({"model", "direction", "precision", "schedule", "distributions", "exact_log_z", "ais_log_z", "error",
               "band_lower", "band_upper", "effective_sample_size", "seconds"});
  for (const AisCheckRow& row : result.rows)
    table.add_row({row.model, row.direction, std::string(row.single_precision ? "float" : "double"), row.schedule,
                   static_cast<long long>(row.distributions), row.exact_log_partition, row.ais_log_partition,
                   row.ais_log_partition - row.exact_log_partition, row.band_lower - row.exact_log_partition,
                   row.band_upper - row.exact_log_partition, row.effective_sample_size, row.seconds});
  return table;
}

Table ais_timing_table(const AisCheckOptions& options, const AisCheckResult& result) {
  Table timing({"precision", "particles", "distributions", "seconds", "milliseconds_per_distribution"});
  for (const AisTimingRow& row : result.timing)
    timing.add_row({std::string(row.single_precision ? "float" : "double"), static_cast<long long>(options.particles),
                    static_cast<long long>(options.timing_distributions), row.seconds,
                    1000.0 * row.seconds / static_cast<double>(options.timing_distributions)});
  return timing;
}

namespace {

// ais_check.csv, ais_timing.csv and ais_check.svg (error and band against K, linear schedule).
void write_ais_check(const AisCheckOptions& options, const AisCheckResult& result, ResultDirectory& out) {
  out.write_csv("ais_check.csv", ais_check_table(result));
  // One line per (model, direction, precision), over the linear schedule's K.
  std::vector<PlotSeries> series;
  for (const AisCheckRow& row : result.rows) {
    const std::string label = row.model + " " + row.direction + (row.single_precision ? " float" : " double");
    if (series.empty() || series.back().label != label)
      series.push_back({label, {}, {}, {}, {}, !row.single_precision});
    if (row.schedule != to_string(AisSchedule::linear)) continue;
    PlotSeries& line = series.back();
    line.x.push_back(static_cast<double>(row.distributions));
    line.y.push_back(row.ais_log_partition - row.exact_log_partition);
    line.lower.push_back(std::max(row.band_lower - row.exact_log_partition, -5.0));
    line.upper.push_back(std::min(row.band_upper - row.exact_log_partition, 5.0));
  }
  out.write_svg("ais_check.svg", series,
                {"AIS error against exact log Z (" + std::to_string(options.particles) +
                     " particles, band: mean weight ± 3 s.e.)",
                 "intermediate distributions K",
                 "log Ẑ − log Z",
                 true,
                 std::nullopt,
                 std::nullopt,
                 {{"", 0.0}}});
  out.write_csv("ais_timing.csv", ais_timing_table(options, result));
}

}  // namespace

std::vector<ExperimentOption> AisCheck::own_options() {
  return {{"--distributions", "override the numbers K of intermediate distributions, e.g. 10,100"},
          {"--updates", "override the training updates of both models"},
          {"--timing-distributions", "override the distributions of the float/double timing on 784×500"}};
}

AisCheckOptions AisCheck::make_options(const ExperimentInputs& inputs) {
  AisCheckOptions options = ais_check_options(inputs.scale, inputs.seed, inputs.mnist);
  if (const auto counts = inputs.integers("--distributions", 1))
    options.distribution_counts.assign(counts->begin(), counts->end());
  if (const auto updates = inputs.integer("--updates", 1))
    options.bars_training_updates = options.mnist_training_updates = *updates;
  if (const auto count = inputs.integer("--timing-distributions", 1)) options.timing_distributions = *count;
  options.validate();
  return options;
}

nlohmann::json AisCheck::configuration(const AisCheckOptions& options) { return to_json(options); }

OrPartDone<AisCheckResult> AisCheck::run(const AisCheckOptions& options, const JobRunner& runner, std::ostream& log) {
  log << "ais-check: AIS against exact log Z with K = " << options.distribution_counts.size()
      << " numbers of distributions\n";
  return run_ais_check(options, runner);
}

ExperimentReport AisCheck::report(const AisCheckOptions& options, const AisCheckResult& result, ResultDirectory& out,
                                  std::ostream& log) {
  write_ais_check(options, result, out);
  for (const auto& [model, seconds] : result.exact_seconds) log << model << ": exact log Z in " << seconds << " s\n";
  ExperimentReport report;
  report.tables.push_back({"ais_check", ais_check_table(result)});
  report.tables.back().table.print(log, 6);
  report.tables.push_back({"ais_timing", ais_timing_table(options, result)});
  report.tables.back().table.print(log, 4);
  report.record_fields["exact_log_partition_seconds"] = result.exact_seconds;
  return report;
}

}  // namespace rbmix::experiments
