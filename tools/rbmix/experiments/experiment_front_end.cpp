#include "experiment_front_end.hpp"

#include <cstdio>
#include <limits>
#include <optional>
#include <sstream>

#include "rbmix/core/error.hpp"
#include "rbmix/experiments/job_grid.hpp"
#include "rbmix/experiments/mpi_job_backend.hpp"
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
  command.add_option("--shard", arguments.shard,
                     "I/N: run only share I of N of the jobs (every N-th), journaled in --out for `experiment merge`");
  command.add_flag("--resume", arguments.resume, "skip the jobs already journaled in --out by an interrupted run");
  arguments.command = &command;
}

std::vector<std::string> grid_arguments(const ExperimentArguments& arguments) {
  std::vector<std::string> tokens{arguments.command->get_name()};
  for (const CLI::Option* option : arguments.command->get_options()) {
    const std::string name = option->get_name();
    if (option->count() == 0 || name == "--out" || name == "--seed" || name == "--threads" || name == "--shard" ||
        name == "--resume")
      continue;
    tokens.push_back(name);
    if (option->get_expected_min() > 0)
      for (const std::string& value : option->results()) tokens.push_back(value);
  }
  return tokens;
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
  if (!arguments.shard.empty()) settings.shard = experiments::parse_shard(arguments.shard);
  settings.resume = arguments.resume;
  // Every rank parses the same command line; only rank 0 speaks and writes.
  if (experiments::start_mpi_world() && experiments::mpi_rank() != 0) std::freopen("/dev/null", "w", stdout);
  experiments::JobGridSettings grid;
  grid.directory = settings.out;
  grid.identity = {{"arguments", grid_arguments(arguments)}, {"seed", settings.seed}, {"rbmix_version", RBMIX_VERSION}};
  grid.shard = settings.shard;
  grid.resume = settings.resume;
  // One command runs per process: its grid lives until the process ends.
  static std::optional<experiments::JobGrid> active;
  active.emplace(grid);
  experiments::activate_job_grid(&*active);
  return settings;
}

nlohmann::json make_experiment_record(const std::string& name, nlohmann::json configuration,
                                      const ExperimentSettings& settings) {
  configuration["experiment"] = name;
  configuration["scale"] = experiments::to_string(settings.scale);
  configuration["job_threads"] = settings.threads;
  if (!settings.mnist.empty()) configuration["mnist_directory"] = settings.mnist.string();
  nlohmann::json record = make_run_record("experiment " + name, configuration, settings.seed);
  record["ranks"] = experiments::mpi_size();
  if (experiments::mpi_world_active()) record["hosts"] = experiments::mpi_hosts();
  return record;
}

std::vector<int> parse_integer_list(const std::string& text, const std::string& option) {
  std::vector<int> out;
  bool empty_range = false;
  const auto colon = text.find(':');
  try {
    if (colon != std::string::npos) {
      const int first = std::stoi(text.substr(0, colon)), last = std::stoi(text.substr(colon + 1));
      if (first > last) empty_range = true;
      for (int k = first; k <= last; ++k) out.push_back(k);
    } else {
      std::stringstream stream(text);
      std::string item;
      while (std::getline(stream, item, ',')) out.push_back(std::stoi(item));
    }
  } catch (const std::exception&) {
    throw InputError(option + " '" + text + "': expected integers as A:B or A,B,C");
  }
  require(!empty_range, option + " '" + text + "': the range A:B needs A <= B");
  require(!out.empty(), option + " '" + text + "': no values");
  return out;
}

}  // namespace rbmix::cli
