// rbmix experiment modified-sweep: the per-unit modified rule unit-modified:γ between G and T
// (rbmix/experiments/modified_sweep_experiment.hpp). Reads the options, runs the core, writes its files and the run
// record, and prints the tables.
#include <iostream>
#include <limits>
#include <memory>

#include "experiment_front_end.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/experiments/modified_sweep_experiment.hpp"

namespace rbmix::cli {
namespace {

struct ModifiedSweepArguments {
  ExperimentArguments shared;
  std::string sizes;
  std::string bounds = "1:10";
  int count = 0;
  std::vector<double> shifts;
  std::vector<double> trained_shifts;
  double alpha = 0.5;
  int trials = -1;
  std::int64_t updates = 0;
  Eigen::Index steps = 0;
};

void run(const ModifiedSweepArguments& arguments) {
  const ExperimentSettings settings = validate_experiment_arguments(arguments.shared);
  experiments::ModifiedSweepOptions options =
      experiments::modified_sweep_options(settings.scale, settings.seed, settings.mnist);
  if (!arguments.sizes.empty()) options.sizes = parse_integer_list(arguments.sizes, "--sizes");
  options.weight_bounds = parse_integer_list(arguments.bounds, "--c");
  if (arguments.count != 0) options.rbms_per_setting = arguments.count;
  if (!arguments.shifts.empty()) options.shifts = arguments.shifts;
  if (!arguments.trained_shifts.empty()) options.trained_shifts = arguments.trained_shifts;
  options.mixture_weight = arguments.alpha;
  if (arguments.trials == 0) options.trained.clear();
  for (auto& setting : options.trained) {
    if (arguments.trials > 0) setting.trials = arguments.trials;
    if (arguments.updates > 0) setting.updates = arguments.updates;
    if (arguments.steps > 0) setting.steps = arguments.steps;
  }
  options.threads = settings.threads;
  options.validate();
  experiments::ResultDirectory out(settings.out);
  nlohmann::json record = make_experiment_record("modified-sweep", experiments::to_json(options), settings);

  if (!options.mnist_skipped.empty() && !options.trained.empty()) std::cout << options.mnist_skipped << '\n';
  const experiments::ModifiedSweepResult result = experiments::run_modified_sweep(options);
  experiments::write_modified_sweep(options, result, out);
  record["seconds"] = result.seconds;
  out.write_run_record(record);

  std::cout << "unit-modified:γ on random RBMs (W ~ U[-c, c], biases 0), " << options.rbms_per_setting
            << " per setting: mean SLEM and median exact energy τ of G, T, T^" << options.mixture_weight
            << " and the best γ\n";
  experiments::modified_sweep_summary_table(options, result).print(std::cout, 4);
  if (!result.trained.empty()) {
    std::cout << "energy τ on trained RBMs, mean over trials\n";
    experiments::modified_sweep_trained_table(options, result).print(std::cout, 4);
  }
  std::cout << "time: " << result.seconds << " s; wrote " << out.path().string() << '\n';
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<ModifiedSweepArguments>();
  CLI::App* command = parent.add_subcommand(
      "modified-sweep", "unit-modified:γ between G and T: SLEM and energy τ against γ, random and trained RBMs");
  add_experiment_arguments(*command, arguments->shared,
                           {experiments::Scale::smoke,
                            "also sample RBMs trained on the MNIST files in this directory (stochastic binarisation, "
                            "10 hidden units, mini-batches of 100, as the autocorr experiment)"});
  command->add_option("--sizes", arguments->sizes,
                      "m = n values of the random RBMs, e.g. 2,3,4; above 5 the matrix-free route (slow) "
                      "(default: paper 2,3,4; smoke 2,3)");
  command->add_option("--c", arguments->bounds, "weight bounds, A:B or A,B,C")->capture_default_str();
  command->add_option("--count", arguments->count, "random RBMs per (size, c) (default: paper 100; smoke 3)")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  command->add_option("--gammas", arguments->shifts, "γ values on the random RBMs, e.g. 0,0.5,1")->delimiter(',');
  command->add_option("--trained-gammas", arguments->trained_shifts, "γ values on the trained RBMs")->delimiter(',');
  command->add_option("--alpha", arguments->alpha, "α of the mixture T^α")->capture_default_str();
  command
      ->add_option("--trials", arguments->trials, "trained RBMs per setting; 0 skips them (default: paper 10; smoke 1)")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
  command->add_option("--updates", arguments->updates, "training updates (default: paper 20000; smoke 100)")
      ->check(CLI::PositiveNumber);
  command->add_option("--steps", arguments->steps, "sampled sweeps per trained RBM and operator")
      ->check(CLI::Range(Eigen::Index{2}, std::numeric_limits<Eigen::Index>::max()));
  command->callback([arguments] { run(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach)
