#include "experiment_front_end.hpp"

#include <limits>

#include "rbmix/core/error.hpp"
#include "rbmix/report/run_record.hpp"

namespace rbmix::cli {

void add_experiment_arguments(CLI::App& command, ExperimentArguments& arguments,
                              const SharedArgumentSpecification& specification) {
  arguments.scale = experiments::to_string(specification.default_scale);
  command.add_option("--scale", arguments.scale, "smoke|paper")->capture_default_str();
  command.add_option("--seed", arguments.seed, "random seed")->capture_default_str();
  command.add_option("--out", arguments.out, "output directory")->required();
  // An explicit range: CLI11's NonNegativeNumber names the largest double in its message.
  command.add_option("--threads", arguments.threads, "jobs run at once (default 0: all cores)")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
  if (!specification.mnist_help.empty()) command.add_option("--mnist", arguments.mnist, specification.mnist_help);
}

ExperimentSettings validate_experiment_arguments(const ExperimentArguments& arguments) {
  ExperimentSettings settings;
  settings.scale = experiments::parse_scale(arguments.scale);
  settings.seed = arguments.seed;
  require(arguments.threads >= 0, "--threads must be non-negative, got " + std::to_string(arguments.threads));
  settings.threads = arguments.threads;
  require(!arguments.out.empty(), "--out: give an output directory");
  settings.out = arguments.out;
  if (!arguments.mnist.empty()) {
    require(std::filesystem::is_directory(arguments.mnist), "--mnist: '" + arguments.mnist + "' is not a directory");
    settings.mnist = arguments.mnist;
  }
  return settings;
}

nlohmann::json make_experiment_record(const std::string& name, nlohmann::json configuration,
                                      const ExperimentSettings& settings) {
  configuration["experiment"] = name;
  configuration["scale"] = experiments::to_string(settings.scale);
  configuration["job_threads"] = settings.threads;
  if (!settings.mnist.empty()) configuration["mnist_directory"] = settings.mnist.string();
  return make_run_record("experiment " + name, configuration, settings.seed);
}

}  // namespace rbmix::cli
