// rbmix experiment flip-training: 003 Table 1 (ALGORITHMS.md §8, T1), G against T in CD_k, PCD_k and t-PT_k
// training on Bars & Stripes 4×4 and, with --mnist DIR, on MNIST with 10 hidden units. The core is
// rbmix::experiments::run_flip_training; this file reads the options and writes, per data set, flip_training.csv
// (the table), flip_training_runs.csv (every run) and learning_curves.svg (MNIST's with the prefix mnist_), and
// run.json.
#include "rbmix/experiments/flip_training.hpp"

#include <chrono>
#include <iostream>
#include <optional>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/report/run_record.hpp"
#include "rbmix/report/svg_plot.hpp"
#include "rbmix/report/table.hpp"

namespace rbmix::cli {
namespace {

// 003 §5.2 calls a difference significant at p < 0.05.
constexpr double significance_level = 0.05;

struct FlipTrainingArguments {
  std::string scale = "smoke";
  std::uint64_t seed = 1;
  std::string out;
  int threads = 0;
  int trials = 0;
  std::int64_t updates = 0;
  std::vector<double> learning_rates;
  std::string mnist;
};

void apply_overrides(const FlipTrainingArguments& arguments, experiments::FlipTrainingConfig& config) {
  config.threads = arguments.threads;
  if (arguments.trials > 0) config.trials = arguments.trials;
  if (arguments.updates > 0) config.updates = arguments.updates;
  if (!arguments.learning_rates.empty()) {
    // Keep the scale's settings at the requested rates (a paper-scale run can then be split by learning rate).
    std::vector<experiments::FlipTrainingSetting> settings;
    for (double rate : arguments.learning_rates)
      for (auto setting : config.settings)
        if (setting.learning_rate == config.settings.front().learning_rate) {
          setting.learning_rate = rate;
          settings.push_back(setting);
        }
    config.settings = settings;
  }
}

// Runs the experiment on one data set, writes its tables and plot to `out` with file names starting with `prefix`,
// and returns the time it took in seconds.
double run_data_set(const experiments::FlipTrainingConfig& config, const std::filesystem::path& out,
                    const std::string& prefix) {
  std::cout << "flip-training (003 Table 1): " << config.data_name << " (" << config.data.rows() << " rows), "
            << config.hidden << " hidden, batch "
            << (config.batch_size > 0 ? std::to_string(config.batch_size) : std::string("full")) << ", "
            << config.settings.size() << " settings × {G, T} × " << config.trials << " trials, " << config.updates
            << " updates, exact LL on " << config.evaluation_name << " every " << config.evaluation_interval << "\n";
  const auto start = std::chrono::steady_clock::now();
  const experiments::FlipTrainingResult result = experiments::run_flip_training(config);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  Table table({"setting", "learning_rate", "median_max_ll_gibbs", "median_max_ll_flip", "flip_minus_gibbs",
               "wilcoxon_w_plus", "p_value", "significant", "better"});
  int flip_better = 0, flip_significantly_better = 0;
  for (const auto& row : result.rows) {
    const double difference = row.median_maximum_flip - row.median_maximum_gibbs;
    const bool significant = row.p_value < significance_level;
    flip_better += difference > 0;
    flip_significantly_better += difference > 0 && significant;
    table.add_row({row.setting.name(), row.setting.learning_rate, row.median_maximum_gibbs, row.median_maximum_flip,
                   difference, row.positive_rank_sum, row.p_value, std::string(significant ? "*" : ""),
                   std::string(difference > 0   ? "T"
                               : difference < 0 ? "G"
                                                : "=")});
  }
  table.write_csv(out / (prefix + "flip_training.csv"));
  table.print(std::cout, 5);
  std::cout << "T has the higher median maximum in " << flip_better << " of " << result.rows.size()
            << " settings (significant, Wilcoxon p < 0.05: " << flip_significantly_better
            << "). 003 claims: T better for most settings.\n";

  Table runs({"setting", "learning_rate", "operator", "trial", "max_ll", "final_ll", "diverged"});
  for (const auto& run : result.runs) {
    const auto& setting = config.settings[run.setting];
    runs.add_row({setting.name(), setting.learning_rate, std::string(run.flip ? "flip" : "gibbs"),
                  static_cast<long long>(run.trial), run.maximum_log_likelihood, run.final_log_likelihood,
                  static_cast<long long>(run.diverged)});
  }
  runs.write_csv(out / (prefix + "flip_training_runs.csv"));

  // Median learning curves of G and T for every setting at the middle learning rate (003 Fig. 3 shows CD_5, η 0.05).
  const double plotted_rate = config.settings[config.settings.size() / 2].learning_rate;
  std::vector<PlotSeries> series;
  for (std::size_t setting = 0; setting < config.settings.size(); ++setting) {
    if (config.settings[setting].learning_rate != plotted_rate) continue;
    for (bool flip : {false, true}) {
      PlotSeries line;
      line.label = config.settings[setting].name() + (flip ? " T" : " G");
      line.dashed = flip;
      for (std::size_t k = 0; k < result.evaluation_updates.size(); ++k) {
        std::vector<double> values;
        for (const auto& run : result.runs)
          if (run.setting == setting && run.flip == flip && std::isfinite(run.learning_curve[k]))
            values.push_back(run.learning_curve[k]);
        if (values.empty()) continue;
        line.x.push_back(static_cast<double>(result.evaluation_updates[k]));
        line.y.push_back(experiments::median(values));
      }
      series.push_back(line);
    }
  }
  PlotOptions plot;
  plot.title = "Median learning curves, " + config.data_name + ", eta " + std::to_string(plotted_rate);
  plot.x_label = "update";
  plot.y_label = "average log-likelihood";
  write_svg_plot(out / (prefix + "learning_curves.svg"), series, plot);
  std::cout << config.data_name << ": time " << seconds << " s; wrote "
            << (out / (prefix + "flip_training.csv")).string() << ", " << prefix << "flip_training_runs.csv, " << prefix
            << "learning_curves.svg\n";
  return seconds;
}

void run(const FlipTrainingArguments& arguments) {
  experiments::FlipTrainingConfig config = experiments::flip_training_config(arguments.scale, arguments.seed);
  apply_overrides(arguments, config);
  // Load MNIST before the first data set runs, so that a wrong directory fails at once.
  std::optional<experiments::FlipTrainingConfig> mnist;
  if (!arguments.mnist.empty()) {
    mnist = experiments::flip_training_mnist_config(arguments.scale, arguments.seed, arguments.mnist);
    apply_overrides(arguments, *mnist);
  }
  const std::filesystem::path out = prepare_output_directory(arguments.out);
  double seconds = run_data_set(config, out, "");
  if (mnist) {
    seconds += run_data_set(*mnist, out, "mnist_");
  } else {
    std::cout << "MNIST with 10 hidden units (003's second data set) is not run: give the MNIST directory with "
                 "--mnist DIR.\n";
  }

  nlohmann::json configuration{{"experiment", "flip-training"},
                               {"source", "003 Table 1"},
                               {"scale", arguments.scale},
                               {"data", config.data_name},
                               {"hidden", config.hidden},
                               {"batch", "full"},
                               {"trials", config.trials},
                               {"updates", config.updates},
                               {"evaluation_interval", config.evaluation_interval},
                               {"tempering", "t replicas at beta = 1 - i/(t-1)"},
                               {"significance_level", significance_level}};
  for (const auto& setting : config.settings)
    configuration["settings"].push_back(setting.name() + " eta " + std::to_string(setting.learning_rate));
  if (mnist) {
    configuration["mnist"] = {
        {"directory", arguments.mnist},
        {"data", mnist->data_name},
        {"rows", mnist->data.rows()},
        {"binarisation", "threshold: v = [x/255 > 1/2]"},
        {"hidden", mnist->hidden},
        {"batch", mnist->batch_size},
        {"trials", mnist->trials},
        {"updates", mnist->updates},
        {"evaluation_interval", mnist->evaluation_interval},
        {"evaluation", mnist->evaluation_name},
        {"evaluation_rows", mnist->evaluation_data.size() > 0 ? mnist->evaluation_data.rows() : mnist->data.rows()},
        {"files", {"mnist_flip_training.csv", "mnist_flip_training_runs.csv", "mnist_learning_curves.svg"}}};
  }
  nlohmann::json record = make_run_record("experiment flip-training", configuration, config.seed);
  record["seconds"] = seconds;
  write_json_file(out / "run.json", record);
  std::cout << "total time " << seconds << " s; wrote " << (out / "run.json").string() << "\n";
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<FlipTrainingArguments>();
  CLI::App* command =
      parent.add_subcommand("flip-training", "003 Table 1: median maximum log-likelihood, G vs T, CD/PCD/PT");
  command->add_option("--scale", arguments->scale, "smoke|paper")->capture_default_str();
  command->add_option("--seed", arguments->seed, "random seed")->capture_default_str();
  command->add_option("--out", arguments->out, "output directory")->required();
  command->add_option("--threads", arguments->threads, "runs trained at once (default: all cores)");
  command->add_option("--trials", arguments->trials, "override the number of trials");
  command->add_option("--updates", arguments->updates, "override the number of updates");
  command->add_option("--learning-rates", arguments->learning_rates, "override the learning rates, e.g. 0.1,0.05")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  command->add_option("--mnist", arguments->mnist,
                      "also run 003's MNIST setting on the MNIST files in this directory: training images "
                      "binarised by threshold (x/255 > 1/2), 10 hidden units, mini-batches of 100, exact LL on a "
                      "random subset of 5000 training rows drawn with --seed (smoke: the first 500 images, "
                      "100 updates, all evaluated)");
  command->callback([arguments] { run(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach)
