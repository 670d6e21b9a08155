// rbmix experiment flip-training: 003 Table 1 (rbmix/experiments/flip_training_experiment.hpp), G against T in
// CD_k, PCD_k and t-PT_k training on Bars & Stripes 4×4 and, with --mnist DIR, on MNIST with 10 hidden units.
// Reads the options, runs the core on both data sets as one grid of jobs (MNIST's files carry the prefix mnist_),
// writes run.json and prints the tables.
#include <chrono>
#include <iostream>
#include <memory>

#include "experiment_front_end.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/experiments/flip_training_experiment.hpp"

namespace rbmix::cli {
namespace {

struct FlipTrainingArguments {
  ExperimentArguments shared;
  int trials = 0;
  std::int64_t updates = 0;
  std::vector<double> learning_rates;
};

void apply_overrides(const FlipTrainingArguments& arguments, const ExperimentSettings& settings,
                     experiments::FlipTrainingOptions& options) {
  options.threads = settings.threads;
  if (arguments.trials > 0) options.trials = arguments.trials;
  if (arguments.updates > 0) options.updates = arguments.updates;
  if (!arguments.learning_rates.empty()) {
    // Keep the scale's settings at the requested rates (a paper-scale run can then be split by learning rate).
    std::vector<experiments::FlipTrainingSetting> kept;
    for (double rate : arguments.learning_rates)
      for (auto setting : options.settings)
        if (setting.learning_rate == options.settings.front().learning_rate) {
          setting.learning_rate = rate;
          kept.push_back(setting);
        }
    options.settings = kept;
  }
  options.validate();
}

void describe(const experiments::FlipTrainingOptions& options) {
  std::cout << "flip-training (003 Table 1): " << options.data_name << " (" << options.data.rows() << " rows), "
            << options.hidden << " hidden, batch "
            << (options.batch_size > 0 ? std::to_string(options.batch_size) : std::string("full")) << ", "
            << options.settings.size() << " settings × {G, T} × " << options.trials << " trials, " << options.updates
            << " updates, exact LL on " << options.evaluation_name << " every " << options.evaluation_interval << "\n";
}

// Writes one data set's files with names starting with `prefix` and prints its table.
void report_data_set(const experiments::FlipTrainingOptions& options, const experiments::FlipTrainingResult& result,
                     const std::string& prefix, experiments::ResultDirectory& out) {
  experiments::write_flip_training(options, result, prefix, out);
  std::cout << options.data_name << ":\n";
  experiments::flip_training_table(result).print(std::cout, 5);
  int flip_better = 0, flip_significantly_better = 0;
  for (const auto& row : result.rows) {
    const bool better = row.median_maximum_flip > row.median_maximum_gibbs;
    flip_better += better;
    flip_significantly_better += better && row.p_value < experiments::flip_training_significance_level;
  }
  std::cout << "T has the higher median maximum in " << flip_better << " of " << result.rows.size()
            << " settings (significant, Wilcoxon p < 0.05: " << flip_significantly_better
            << "). 003 claims: T better for most settings.\n";
  std::cout << "wrote " << (out.path() / (prefix + "flip_training.csv")).string() << ", " << prefix
            << "flip_training_runs.csv, " << prefix << "learning_curves.svg\n";
}

void run(const FlipTrainingArguments& arguments) {
  const ExperimentSettings settings = validate_experiment_arguments(arguments.shared);
  experiments::FlipTrainingOptions options = experiments::flip_training_options(settings.scale, settings.seed);
  apply_overrides(arguments, settings, options);
  // Load MNIST before any job runs, so that a wrong directory fails at once.
  std::vector<experiments::FlipTrainingOptions> data_sets{options};
  if (!settings.mnist.empty()) {
    data_sets.push_back(experiments::flip_training_mnist_options(settings.scale, settings.seed, settings.mnist));
    apply_overrides(arguments, settings, data_sets.back());
  }
  for (const auto& data_set : data_sets) describe(data_set);
  // Both data sets' runs form one grid, so that shards and ranks spread the costly MNIST half too.
  const auto start = std::chrono::steady_clock::now();
  const std::vector<experiments::FlipTrainingResult> results = experiments::run_flip_training(data_sets);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  experiments::ResultDirectory out(settings.out);
  report_data_set(data_sets.front(), results.front(), "", out);
  if (data_sets.size() > 1) {
    report_data_set(data_sets.back(), results.back(), "mnist_", out);
  } else {
    std::cout << "MNIST with 10 hidden units (003's second data set) is not run: give the MNIST directory with "
                 "--mnist DIR.\n";
  }

  nlohmann::json configuration = experiments::to_json(options);
  if (data_sets.size() > 1) {
    configuration["mnist"] = experiments::to_json(data_sets.back());
    configuration["mnist"]["binarisation"] = "threshold: v = [x/255 > 1/2]";
  }
  nlohmann::json record = make_experiment_record("flip-training", configuration, settings);
  record["seconds"] = seconds;
  out.write_run_record(record);
  std::cout << "total time " << seconds << " s; wrote " << (out.path() / "run.json").string() << "\n";
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<FlipTrainingArguments>();
  CLI::App* command =
      parent.add_subcommand("flip-training", "003 Table 1: median maximum log-likelihood, G vs T, CD/PCD/PT");
  add_experiment_arguments(*command, arguments->shared,
                           {experiments::Scale::smoke,
                            "also run 003's MNIST setting on the MNIST files in this directory: training images "
                            "binarised by threshold (x/255 > 1/2), 10 hidden units, mini-batches of 100, exact LL on "
                            "a random subset of 5000 training rows drawn with --seed (smoke: the first 500 images, "
                            "100 updates, all evaluated)"});
  command->add_option("--trials", arguments->trials, "override the number of trials");
  command->add_option("--updates", arguments->updates, "override the number of updates");
  command->add_option("--learning-rates", arguments->learning_rates, "override the learning rates, e.g. 0.1,0.05")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  command->callback([arguments] { run(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach)
