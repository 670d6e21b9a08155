// rbmix experiment ais-check: AIS against exact log Z (rbmix/experiments/ais_check_experiment.hpp). Reads the
// options, runs the core, writes its files and run.json, and prints both tables.
#include <cstdint>
#include <iostream>
#include <memory>

#include "experiment_front_end.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/experiments/ais_check_experiment.hpp"

namespace rbmix::cli {
namespace {

struct AisCheckArguments {
  ExperimentArguments shared;
  std::vector<Eigen::Index> distribution_counts;
  std::int64_t updates = 0;
  Eigen::Index timing_distributions = 0;
};

void run(const AisCheckArguments& arguments) {
  const ExperimentSettings settings = validate_experiment_arguments(arguments.shared);
  experiments::AisCheckOptions options = experiments::ais_check_options(settings.scale, settings.seed, settings.mnist);
  options.threads = settings.threads;
  if (!arguments.distribution_counts.empty()) options.distribution_counts = arguments.distribution_counts;
  if (arguments.updates > 0) options.bars_training_updates = options.mnist_training_updates = arguments.updates;
  if (arguments.timing_distributions > 0) options.timing_distributions = arguments.timing_distributions;
  options.validate();
  experiments::ResultDirectory out(settings.out);
  const experiments::AisCheckResult result = experiments::run_ais_check(options);
  experiments::write_ais_check(options, result, out);
  nlohmann::json record = make_experiment_record("ais-check", experiments::to_json(options), settings);
  record["exact_log_partition_seconds"] = result.exact_seconds;
  out.write_run_record(record);

  for (const auto& [model, seconds] : result.exact_seconds)
    std::cout << model << ": exact log Z in " << seconds << " s\n";
  experiments::ais_check_table(result).print(std::cout, 6);
  experiments::ais_timing_table(options, result).print(std::cout, 4);
  std::cout << "wrote " << out.path().string() << "/ais_check.csv, ais_timing.csv, ais_check.svg, run.json\n";
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<AisCheckArguments>();
  CLI::App* command =
      parent.add_subcommand("ais-check", "AIS against exact log Z: error against the number of distributions");
  add_experiment_arguments(*command, arguments->shared,
                           {experiments::Scale::smoke, "MNIST directory (IDX files); else a random 784×20 model"});
  command
      ->add_option("--distributions", arguments->distribution_counts,
                   "override the numbers K of intermediate distributions, e.g. 10,100")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  command->add_option("--updates", arguments->updates, "override the training updates of both models")
      ->check(CLI::PositiveNumber);
  command
      ->add_option("--timing-distributions", arguments->timing_distributions,
                   "override the distributions of the float/double timing on 784×500")
      ->check(CLI::PositiveNumber);
  command->callback([arguments] { run(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach)
