// rbmix experiment estimator-calibration: the estimators of the integrated autocorrelation time against the exact τ
// of tiny RBMs (rbmix/experiments/estimator_calibration_experiment.hpp). Reads the options, runs the core, writes
// its files and run.json, and prints the score table and the trust rule the calibration chooses.
#include <iostream>
#include <limits>
#include <memory>

#include "experiment_front_end.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/experiments/estimator_calibration_experiment.hpp"

namespace rbmix::cli {
namespace {

struct EstimatorCalibrationArguments {
  ExperimentArguments shared;
  int replicates = 0;  // 0: the scale's
};

void run(const EstimatorCalibrationArguments& arguments) {
  const ExperimentSettings settings = validate_experiment_arguments(arguments.shared);
  experiments::EstimatorCalibrationOptions options =
      experiments::estimator_calibration_options(settings.scale, settings.seed);
  if (arguments.replicates != 0) options.replicates = arguments.replicates;
  options.threads = settings.threads;
  options.validate();
  experiments::ResultDirectory out(settings.out);
  const experiments::EstimatorCalibrationResult result = experiments::run_estimator_calibration(options);
  experiments::write_estimator_calibration(options, result, out);
  nlohmann::json record =
      make_experiment_record("estimator-calibration", experiments::to_json(options), settings);
  record["seconds"] = result.seconds;
  record["skipped_operators"] = result.skipped_operators;
  out.write_run_record(record);

  std::cout << result.runs.size() << " trace sets; estimates against the exact tau, trust rule of the options:\n";
  experiments::estimator_score_table(experiments::score_estimators(result, options.rule)).print(std::cout, 3);
  const auto candidates = experiments::rule_candidates(result, options.rule);
  if (!result.runs.empty()) {
    const auto& chosen = candidates[experiments::chosen_rule(candidates)];
    std::cout << "chosen rule: relative half width <= " << chosen.rule.max_relative_half_width
              << ", disagreement <= " << chosen.rule.max_disagreement << " standard errors: flags "
              << chosen.pooled.flagged_far_share() << " of the " << chosen.pooled.far_off
              << " estimates > 20 % off and " << chosen.pooled.flagged_close_share() << " of the "
              << chosen.pooled.close << " within 10 %\n";
  }
  std::cout << "wrote " << out.path().string()
            << "/estimator_calibration.csv, estimator_calibration_runs.csv, estimator_calibration_rules.csv, "
               "estimator_calibration_*.svg, run.json ("
            << result.seconds << " s)\n";
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<EstimatorCalibrationArguments>();
  CLI::App* command = parent.add_subcommand(
      "estimator-calibration", "Autocorrelation-time estimators and their trust rule against exact tau on tiny RBMs");
  add_experiment_arguments(*command, arguments->shared, {experiments::Scale::smoke, ""});
  command
      ->add_option("--replicates", arguments->replicates,
                   "independent trace sets per (model, operator, chains x steps) (default: paper 4, smoke 2)")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  command->callback([arguments] { run(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach)
