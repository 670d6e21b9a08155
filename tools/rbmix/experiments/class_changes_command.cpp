// rbmix experiment class-changes: 003 Tables 3 and 4 (rbmix/experiments/class_changes_experiment.hpp). Reads the
// options, runs the core, writes its files and run.json, and prints both tables.
#include <iostream>
#include <limits>
#include <memory>

#include "experiment_front_end.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/experiments/class_changes_experiment.hpp"

namespace rbmix::cli {
namespace {

struct ClassChangesArguments {
  ExperimentArguments shared;
  // 0: the scale's default (the options accept only positive values).
  int trials = 0;
  std::int64_t updates = 0;
  Eigen::Index first_change_cap = 0;
  experiments::ClassChangesOptions defaults;  // learning rate, --steps and --starts
  std::string initialisation;                 // empty: the scale's
};

void run(const ClassChangesArguments& arguments) {
  const ExperimentSettings settings = validate_experiment_arguments(arguments.shared);
  experiments::ClassChangesOptions options = experiments::class_changes_options(settings.scale, settings.seed);
  options.learning_rate = arguments.defaults.learning_rate;
  options.sequence_steps = arguments.defaults.sequence_steps;
  options.starts = arguments.defaults.starts;
  if (arguments.trials > 0) options.trials = arguments.trials;
  if (arguments.updates > 0) options.updates = arguments.updates;
  if (arguments.first_change_cap > 0) options.first_change_cap = arguments.first_change_cap;
  if (!arguments.initialisation.empty())
    options.initialisation = parse_parameter_initialisation(arguments.initialisation);
  options.threads = settings.threads;
  options.validate();
  experiments::ResultDirectory out(settings.out);
  const experiments::ClassChangesResult result = experiments::run_class_changes(options);
  experiments::write_class_changes(options, result, out);
  nlohmann::json record = make_experiment_record("class-changes", experiments::to_json(options), settings);
  record["seconds"] = result.seconds;
  out.write_run_record(record);

  std::cout << "Table 3: class changes in " << options.sequence_steps << " sweeps from the all-ones state\n";
  experiments::class_changes_table(options, result).print(std::cout, 5);
  std::cout << "Table 4: sweeps before the first class change from training samples\n";
  experiments::first_class_change_table(options, result).print(std::cout, 5);
  std::cout << "wrote " << out.path().string() << "/class_changes.csv, first_class_change.csv, "
            << "class_changes_trials.csv, run.json (" << result.seconds << " s)\n";
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<ClassChangesArguments>();
  CLI::App* command = parent.add_subcommand(
      "class-changes", "003 Tables 3-4: class changes of G and T on Artificial Modes RBMs trained with CD-5");
  add_experiment_arguments(*command, arguments->shared, {experiments::Scale::smoke, ""});
  command->add_option("--trials", arguments->trials, "RBMs per p_mut (default: paper 25, smoke 3)")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  command->add_option("--updates", arguments->updates, "training updates (default: paper 20000, smoke 1000)")
      ->check(CLI::Range(std::int64_t{1}, std::numeric_limits<std::int64_t>::max()));
  command->add_option("--lr", arguments->defaults.learning_rate, "learning rate")->capture_default_str();
  command->add_option("--steps", arguments->defaults.sequence_steps, "Table 3: sweeps from all ones")
      ->capture_default_str()
      ->check(CLI::Range(Eigen::Index{1}, std::numeric_limits<Eigen::Index>::max()));
  command->add_option(
      "--init", arguments->initialisation,
      "initial parameters: base-rate (W ~ N(0, 0.01²), b = logit of the data mean, c = 0), zero, or normal:S (W, "
      "b, c ~ N(0, S²)); default: paper normal:0.01 (003 §4.2), smoke base-rate");
  command->add_option("--starts", arguments->defaults.starts, "Table 4: chains per RBM")
      ->capture_default_str()
      ->check(CLI::Range(Eigen::Index{1}, std::numeric_limits<Eigen::Index>::max()));
  command
      ->add_option("--cap", arguments->first_change_cap,
                   "Table 4: most sweeps waited for a change (default: paper 10^5, smoke 10^4)")
      ->check(CLI::Range(Eigen::Index{1}, std::numeric_limits<Eigen::Index>::max()));
  command->callback([arguments] { run(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach)
