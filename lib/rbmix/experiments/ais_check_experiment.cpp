#include "rbmix/experiments/ais_check_experiment.hpp"

#include <algorithm>
#include <chrono>

#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/data/mnist.hpp"
#include "rbmix/estimation/ais.hpp"
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
};

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
          std::uint64_t seed) {
  TrainingOptions options;
  options.negative_phase = NegativePhaseKind::contrastive_divergence;
  options.sampling_steps = k;
  options.learning_rate = learning_rate;
  options.batch_size = batch;
  options.updates = updates;
  options.evaluation_interval = 0;
  options.seed = seed;
  Trainer trainer(options, data, MatrixD(0, data.cols()), hidden);
  trainer.run();
  return trainer.model();
}

std::vector<CheckModel> check_models(const AisCheckOptions& options) {
  std::vector<CheckModel> models;
  const MatrixD bars = to_real(bars_and_stripes(4));
  models.push_back({"bas4x4_16h_cd5", train(bars, 16, 5, 0.1, 0, options.bars_training_updates, options.seed),
                    base_rate_visible_bias(bars), rows_with_replacement(bars, options.particles, options.seed)});
  if (!options.mnist_directory.empty()) {
    const LabelledImages images = load_mnist(options.mnist_directory, MnistPart::train);
    const MatrixD digits = to_real(stochastic_binarize(images.images.pixels, options.seed)).topRows(10000);
    models.push_back({"mnist_784x20_cd1", train(digits, 20, 1, 0.05, 100, options.mnist_training_updates, options.seed),
                      base_rate_visible_bias(digits), rows_with_replacement(digits, options.particles, options.seed)});
  } else {
    RandomStream stream(options.seed, 0, StreamDomain::experiment);
    Rbm rbm(784, 20);
    rbm.weights = MatrixD::NullaryExpr(20, 784, [&] { return 0.05 * stream.normal(); });
    rbm.visible_bias = VectorD::NullaryExpr(784, [&] { return stream.normal() - 1.0; });
    models.push_back({"random_784x20", rbm, rbm.visible_bias, MatrixD(0, 784)});
  }
  return models;
}

}  // namespace

AisCheckResult run_ais_check(const AisCheckOptions& options) {
  options.validate();
  AisCheckResult result;
  for (const CheckModel& model : check_models(options)) {
    const auto exact_start = std::chrono::steady_clock::now();
    const double exact = exact_log_partition(model.rbm);
    result.exact_seconds[model.name] = seconds_since(exact_start);
    // Forward AIS in float and double; reverse AIS from data rows in float (approximate: data are not model
    // samples), which should land above the exact value where forward AIS lands below.
    for (const auto& [reverse, single] : {std::pair{false, true}, std::pair{false, false}, std::pair{true, true}}) {
      if (reverse && model.reverse_start.rows() == 0) continue;
      std::vector<std::pair<AisSchedule, Eigen::Index>> runs;
      for (const Eigen::Index count : options.distribution_counts) runs.emplace_back(AisSchedule::linear, count);
      if (options.salakhutdinov_murray_schedule) runs.emplace_back(AisSchedule::salakhutdinov_murray, 0);
      for (const auto& [schedule, count] : runs) {
        AisOptions ais;
        ais.particles = options.particles;
        ais.distributions = count;
        ais.schedule = schedule;
        ais.seed = options.seed;
        ais.base_visible_bias = model.base_bias;
        ais.single_precision = single;
        const auto start = std::chrono::steady_clock::now();
        const AisResult estimate = reverse ? reverse_ais_log_partition(model.rbm, model.reverse_start, ais)
                                           : ais_log_partition(model.rbm, ais);
        result.rows.push_back({model.name, reverse ? "reverse_from_data" : "forward", single, to_string(schedule),
                               estimate.distributions, exact, estimate.log_partition, estimate.log_partition_lower,
                               estimate.log_partition_upper, estimate.effective_sample_size, seconds_since(start)});
      }
    }
  }

  RandomStream stream(options.seed, 1, StreamDomain::experiment);
  Rbm large(784, 500);
  large.weights = MatrixD::NullaryExpr(500, 784, [&] { return 0.01 * stream.normal(); });
  for (const bool single : {true, false}) {
    AisOptions ais;
    ais.particles = options.particles;
    ais.distributions = options.timing_distributions;
    ais.single_precision = single;
    const auto start = std::chrono::steady_clock::now();
    ais_log_partition(large, ais);
    result.timing.push_back({single, seconds_since(start)});
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

}  // namespace rbmix::experiments
