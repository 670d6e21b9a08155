// rbmix experiment autocorr: 003 Table 2 and Fig. 4 (rbmix/experiments/autocorr_experiment.hpp). Reads the options,
// runs the core, writes its files and run.json, and prints Table 2.
#include <iostream>
#include <limits>
#include <memory>

#include "experiment_front_end.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/experiments/autocorr_experiment.hpp"

namespace rbmix::cli {
namespace {

struct AutocorrArguments {
  ExperimentArguments shared;
  experiments::AutocorrOverrides overrides;  // 0: the scale's default (the options accept only positive values)
  double learning_rate = 0.05;
  std::string initialisation;  // empty: the scale's
};

void run(const AutocorrArguments& arguments) {
  const ExperimentSettings settings = validate_experiment_arguments(arguments.shared);
  experiments::AutocorrOverrides overrides = arguments.overrides;
  if (!arguments.initialisation.empty())
    overrides.initialisation = parse_parameter_initialisation(arguments.initialisation);
  experiments::AutocorrOptions options =
      experiments::autocorr_options(settings.scale, settings.seed, settings.mnist, overrides);
  options.learning_rate = arguments.learning_rate;
  options.threads = settings.threads;
  options.validate();
  experiments::ResultDirectory out(settings.out);
  const experiments::AutocorrResult result = experiments::run_autocorr(options);
  experiments::write_autocorr(options, result, out);
  nlohmann::json record = make_experiment_record("autocorr", experiments::to_json(options), settings);
  record["seconds"] = result.seconds;
  out.write_run_record(record);

  experiments::autocorr_summary_table(options, result).print(std::cout, 4);
  std::cout << "wrote " << out.path().string() << "/autocorr.csv, autocorr_trials.csv, autocorrelation_*.csv/.svg, "
            << "run.json (" << result.seconds << " s)\n";
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<AutocorrArguments>();
  CLI::App* command =
      parent.add_subcommand("autocorr", "003 Table 2: autocorrelation times of G and T on RBMs trained with 20-PT10");
  add_experiment_arguments(*command, arguments->shared,
                           {experiments::Scale::smoke, "MNIST directory (IDX files); MNIST settings run only with it"});
  command->add_option("--trials", arguments->overrides.trials, "RBMs per setting (default: paper 25, smoke 2)")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  command->add_option("--updates", arguments->overrides.updates, "training updates (default: paper 20000, smoke 500)")
      ->check(CLI::Range(std::int64_t{1}, std::numeric_limits<std::int64_t>::max()));
  command
      ->add_option("--steps", arguments->overrides.steps, "sampled sweeps per chain (default: paper 10^6, smoke 20000)")
      ->check(CLI::Range(Eigen::Index{2}, std::numeric_limits<Eigen::Index>::max()));
  command->add_option("--lr", arguments->learning_rate, "learning rate")->capture_default_str();
  command->add_option(
      "--init", arguments->initialisation,
      "initial parameters: base-rate (W ~ N(0, 0.01²), b = logit of the data mean, c = 0), zero, or normal:S (W, "
      "b, c ~ N(0, S²)); default: paper normal:0.01 (003 §4.2), smoke base-rate");
  command
      ->add_option("--only", arguments->overrides.only,
                   "settings to run: bas4x4, modes_p0.01, modes_p0.1, mnist_10h, mnist_500h")
      ->delimiter(',');
  command->callback([arguments] { run(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach)
