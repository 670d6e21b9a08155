// rbmix experiment ais-check: AIS against exact log Z (rbmix/experiments/ais_check_experiment.hpp). Reads the
// options, runs the core, writes its files and run.json, and prints both tables.
#include <iostream>
#include <memory>

#include "experiment_front_end.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/experiments/ais_check_experiment.hpp"

namespace rbmix::cli {
namespace {

void run(const ExperimentArguments& arguments) {
  const ExperimentSettings settings = validate_experiment_arguments(arguments);
  const experiments::AisCheckOptions options =
      experiments::ais_check_options(settings.scale, settings.seed, settings.mnist);
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
  auto arguments = std::make_shared<ExperimentArguments>();
  CLI::App* command =
      parent.add_subcommand("ais-check", "AIS against exact log Z: error against the number of distributions");
  add_experiment_arguments(*command, *arguments,
                           {experiments::Scale::smoke, "MNIST directory (IDX files); else a random 784×20 model"});
  command->callback([arguments] { run(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach)
