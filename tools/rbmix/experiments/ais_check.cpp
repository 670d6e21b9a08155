// rbmix experiment ais-check: validates AIS (ALGORITHMS.md §5) against exact log Z on enumerable models: the
// error log Ẑ − log Z and its band against the number K of intermediate distributions (linear schedule, and S&M's
// schedule at paper scale), in float and in double; and the cost per distribution of float and double sampling
// on a 784×500 model, which is what decides the default precision. Reverse AIS (Burda et al. 2015) started from
// data rows is listed beside forward AIS as the (approximate) upper side.
// Models: Bars & Stripes 4×4 with 16 hidden units trained by CD-5, and 784×20 (trained by CD-1 on MNIST when
// --mnist names its directory, else W ~ N(0, 0.05²), b ~ N(−1, 1), c = 0, a stand-in of the same shape).
// Writes ais_check.csv, ais_timing.csv, ais_check.svg and ais_check.json into --out.
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/data/mnist.hpp"
#include "rbmix/estimation/ais.hpp"
#include "rbmix/model/exact.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/report/run_record.hpp"
#include "rbmix/report/svg_plot.hpp"
#include "rbmix/report/table.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix::cli {
namespace {

struct AisCheckArguments {
  std::string scale = "smoke";
  std::uint64_t seed = 1;
  std::string out;
  std::string mnist;
};

struct CheckModel {
  std::string name;
  Rbm rbm;
  VectorD base_bias;
  MatrixD reverse_start;  // data rows (drawn with replacement) that start reverse AIS; empty without data
};

constexpr Eigen::Index particles = 100;

MatrixD rows_with_replacement(const MatrixD& data, std::uint64_t seed) {
  RandomStream stream(seed, 2, StreamDomain::experiment);
  MatrixD rows(particles, data.cols());
  for (Eigen::Index row = 0; row < particles; ++row)
    rows.row(row) = data.row(static_cast<Eigen::Index>(stream.below(static_cast<std::uint64_t>(data.rows()))));
  return rows;
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

std::vector<CheckModel> check_models(const AisCheckArguments& arguments, bool paper) {
  std::vector<CheckModel> models;
  const MatrixD bars = to_real(bars_and_stripes(4));
  models.push_back({"bas4x4_16h_cd5", train(bars, 16, 5, 0.1, 0, paper ? 5000 : 1000, arguments.seed),
                    base_rate_visible_bias(bars), rows_with_replacement(bars, arguments.seed)});
  if (!arguments.mnist.empty()) {
    const LabelledImages images = load_mnist(arguments.mnist, MnistPart::train);
    const MatrixD digits = to_real(stochastic_binarize(images.images.pixels, arguments.seed)).topRows(10000);
    models.push_back({"mnist_784x20_cd1", train(digits, 20, 1, 0.05, 100, paper ? 5000 : 500, arguments.seed),
                      base_rate_visible_bias(digits), rows_with_replacement(digits, arguments.seed)});
  } else {
    RandomStream stream(arguments.seed, 0, StreamDomain::experiment);
    Rbm rbm(784, 20);
    rbm.weights = MatrixD::NullaryExpr(20, 784, [&] { return 0.05 * stream.normal(); });
    rbm.visible_bias = VectorD::NullaryExpr(784, [&] { return stream.normal() - 1.0; });
    models.push_back({"random_784x20", rbm, rbm.visible_bias, MatrixD(0, 784)});
  }
  return models;
}

void run_ais_check(const AisCheckArguments& arguments) {
  require(arguments.scale == "paper" || arguments.scale == "smoke", "--scale must be smoke or paper");
  const bool paper = arguments.scale == "paper";
  const auto out = prepare_output_directory(arguments.out);
  const std::vector<Eigen::Index> distribution_counts =
      paper ? std::vector<Eigen::Index>{10, 100, 1000, 10000} : std::vector<Eigen::Index>{10, 100, 1000};

  Table table({"model", "direction", "precision", "schedule", "distributions", "exact_log_z", "ais_log_z", "error",
               "band_lower", "band_upper", "effective_sample_size", "seconds"});
  std::vector<PlotSeries> series;
  nlohmann::json exact_times = nlohmann::json::object();
  for (const CheckModel& model : check_models(arguments, paper)) {
    const auto exact_start = std::chrono::steady_clock::now();
    const double exact = exact_log_partition(model.rbm);
    exact_times[model.name] = seconds_since(exact_start);
    std::cout << model.name << ": exact log Z = " << exact << " (" << exact_times[model.name].get<double>() << " s)\n";
    // Forward AIS in float and double; reverse AIS from data rows in float (approximate: data are not model
    // samples), which should land above the exact value where forward AIS lands below.
    for (const auto& [reverse, single] : {std::pair{false, true}, std::pair{false, false}, std::pair{true, true}}) {
      if (reverse && model.reverse_start.rows() == 0) continue;
      const std::string direction = reverse ? "reverse_from_data" : "forward";
      PlotSeries line{model.name + " " + direction + (single ? " float" : " double"), {}, {}, {}, {}, !single};
      std::vector<std::pair<AisSchedule, Eigen::Index>> runs;
      for (const Eigen::Index count : distribution_counts) runs.emplace_back(AisSchedule::linear, count);
      if (paper) runs.emplace_back(AisSchedule::salakhutdinov_murray, 0);
      for (const auto& [schedule, count] : runs) {
        AisOptions options;
        options.particles = particles;
        options.distributions = count;
        options.schedule = schedule;
        options.seed = arguments.seed;
        options.base_visible_bias = model.base_bias;
        options.single_precision = single;
        const auto start = std::chrono::steady_clock::now();
        const AisResult result = reverse ? reverse_ais_log_partition(model.rbm, model.reverse_start, options)
                                         : ais_log_partition(model.rbm, options);
        const double seconds = seconds_since(start);
        table.add_row({model.name, direction, std::string(single ? "float" : "double"), to_string(schedule),
                       static_cast<long long>(result.distributions), exact, result.log_partition,
                       result.log_partition - exact, result.log_partition_lower - exact,
                       result.log_partition_upper - exact, result.effective_sample_size, seconds});
        if (schedule == AisSchedule::linear) {
          line.x.push_back(static_cast<double>(result.distributions));
          line.y.push_back(result.log_partition - exact);
          line.lower.push_back(std::max(result.log_partition_lower - exact, -5.0));
          line.upper.push_back(std::min(result.log_partition_upper - exact, 5.0));
        }
      }
      series.push_back(line);
    }
  }
  table.print(std::cout, 6);
  table.write_csv(out / "ais_check.csv");
  write_svg_plot(out / "ais_check.svg", series,
                 {"AIS error against exact log Z (100 particles, band: mean weight ± 3 s.e.)",
                  "intermediate distributions K",
                  "log Ẑ − log Z",
                  true,
                  std::nullopt,
                  std::nullopt,
                  {{"", 0.0}}});

  // Float against double on 784×500: seconds per intermediate distribution with 100 particles.
  Table timing({"precision", "particles", "distributions", "seconds", "milliseconds_per_distribution"});
  RandomStream stream(arguments.seed, 1, StreamDomain::experiment);
  Rbm large(784, 500);
  large.weights = MatrixD::NullaryExpr(500, 784, [&] { return 0.01 * stream.normal(); });
  const Eigen::Index timing_distributions = paper ? 2000 : 200;
  for (const bool single : {true, false}) {
    AisOptions options;
    options.particles = particles;
    options.distributions = timing_distributions;
    options.single_precision = single;
    const auto start = std::chrono::steady_clock::now();
    ais_log_partition(large, options);
    const double seconds = seconds_since(start);
    timing.add_row({std::string(single ? "float" : "double"), static_cast<long long>(particles),
                    static_cast<long long>(timing_distributions), seconds,
                    1000.0 * seconds / static_cast<double>(timing_distributions)});
  }
  timing.print(std::cout, 4);
  timing.write_csv(out / "ais_timing.csv");

  nlohmann::json record = make_run_record("experiment ais-check",
                                          {{"scale", arguments.scale},
                                           {"particles", particles},
                                           {"mnist", arguments.mnist},
                                           {"distribution_counts", distribution_counts},
                                           {"timing_model", "784x500, W ~ N(0, 0.01^2), zero biases"}},
                                          arguments.seed);
  record["exact_log_partition_seconds"] = exact_times;
  record["results_csv"] = "ais_check.csv";
  record["timing_csv"] = "ais_timing.csv";
  write_json_file(out / "ais_check.json", record);
  std::cout << "wrote " << out.string() << "/ais_check.csv, ais_timing.csv, ais_check.svg, ais_check.json\n";
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<AisCheckArguments>();
  CLI::App* command =
      parent.add_subcommand("ais-check", "AIS against exact log Z: error against the number of distributions");
  command->add_option("--scale", arguments->scale, "smoke|paper")->capture_default_str();
  command->add_option("--seed", arguments->seed, "random seed")->capture_default_str();
  command->add_option("--out", arguments->out, "output directory")->required();
  command->add_option("--mnist", arguments->mnist, "MNIST directory (IDX files); else a random 784×20 model");
  command->callback([arguments] { run_ais_check(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach)
