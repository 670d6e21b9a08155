// rbmix experiment <name>: one subcommand per entry of the experiment list (rbmix/experiments/experiment_list.hpp),
// all made here the same way. The shared options (--scale, --seed, --out, --threads, --shard, --resume and, where the
// experiment reads MNIST, --mnist) are checked here; the experiment's own options are handed to it as text and read
// by its make_options, so Python's front-end gets the same checks. Under mpirun every rank parses the same command
// line and only rank 0 speaks and writes.
#include <cstdio>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/experiments/experiment_list.hpp"
#include "rbmix/io/output_directory_lock.hpp"
#include "rbmix/jobs/job_grid.hpp"
#include "rbmix/jobs/job_shard.hpp"
#include "rbmix/jobs/mpi_job_backend.hpp"
#include "rbmix/printable.hpp"
#include "rbmix/report/run_record.hpp"

namespace rbmix::cli::experiment_command {
namespace {

// As typed on the command line.
struct ExperimentArguments {
  std::string scale;
  std::uint64_t seed = 1;
  std::string out;
  int threads = 0;
  std::string mnist;
  std::string shard;  // "I/N"; empty: every job
  bool resume = false;
  bool quiet = false;
  std::map<std::string, std::string> own;  // the experiment's own options, by name, as typed
  CLI::App* command = nullptr;             // whose parsed options identify the grid (job_grid.hpp)
};

// Options that do not change results, left out of the grid's identity.
bool changes_no_result(const std::string& name) {
  return name == "--out" || name == "--seed" || name == "--threads" || name == "--shard" || name == "--resume" ||
         name == "--quiet";
}

// The command line that reproduces the grid (the experiment's name, then its options as given), without --seed (the
// grid records the seed itself) and the options that do not change results.
std::vector<std::string> grid_arguments(const ExperimentArguments& arguments) {
  std::vector<std::string> tokens{arguments.command->get_name()};
  for (const CLI::Option* option : arguments.command->get_options()) {
    const std::string name = option->get_name();
    if (option->count() == 0 || changes_no_result(name)) continue;
    tokens.push_back(name);
    if (option->get_expected_min() > 0)
      for (const std::string& value : option->results()) tokens.push_back(value);
  }
  return tokens;
}

experiments::ExperimentInputs read_inputs(const ExperimentArguments& arguments) {
  experiments::ExperimentInputs inputs;
  inputs.scale = experiments::parse_scale(arguments.scale);
  inputs.seed = arguments.seed;
  if (!arguments.mnist.empty()) {
    require(std::filesystem::is_directory(arguments.mnist), "--mnist: '" + arguments.mnist + "' is not a directory");
    inputs.mnist = arguments.mnist;
  }
  for (const CLI::Option* option : arguments.command->get_options())
    if (option->count() > 0 && arguments.own.contains(option->get_name()))
      inputs.given[option->get_name()] = arguments.own.at(option->get_name());
  return inputs;
}

experiments::JobGridSettings grid_settings(const ExperimentArguments& arguments) {
  experiments::JobGridSettings grid;
  grid.directory = arguments.out;
  grid.identity = {
      {"arguments", grid_arguments(arguments)}, {"seed", arguments.seed}, {"rbmix_version", RBMIX_VERSION}};
  if (!arguments.shard.empty()) grid.shard = experiments::parse_shard(arguments.shard);
  grid.resume = arguments.resume;
  if (arguments.quiet) grid.progress = ProgressMode::never;
  return grid;
}

void run(const experiments::ExperimentEntry& entry, const ExperimentArguments& arguments) {
  require(!arguments.out.empty(), "--out: give an output directory");
  const experiments::ExperimentInputs inputs = read_inputs(arguments);
  if (experiments::start_mpi_world() && experiments::mpi_rank() != 0) std::freopen("/dev/null", "w", stdout);
  // Rank 0 writes for every rank (job_grid.hpp), so it alone holds the directory.
  std::optional<OutputDirectoryLock> lock;
  if (experiments::mpi_rank() == 0) lock.emplace(arguments.out);
  experiments::JobGrid grid(grid_settings(arguments));
  const experiments::JobRunner runner(arguments.threads, &grid);
  const auto make_record = [&](const nlohmann::json& experiment_configuration) {
    nlohmann::json configuration = experiment_configuration;
    configuration["experiment"] = entry.name;
    configuration["scale"] = experiments::to_string(inputs.scale);
    configuration["job_threads"] = arguments.threads;
    if (!inputs.mnist.empty()) configuration["mnist_directory"] = inputs.mnist.string();
    nlohmann::json record = make_run_record("experiment " + entry.name, configuration, inputs.seed);
    record["ranks"] = experiments::mpi_size();
    if (experiments::mpi_world_active()) record["hosts"] = experiments::mpi_hosts();
    return record;
  };
  const auto report = entry.run(inputs, runner, arguments.out, make_record, std::cout);
  // A shard journaled its share, or an MPI worker rank stops because rank 0 cannot go on (rank 0 says why): a normal
  // end, status 0.
  if (!report && !report.part_done().message.empty())
    std::cerr << "rbmix: " << printable(report.part_done().message) << '\n';
}

void attach(CLI::App& parent, const experiments::ExperimentEntry& entry) {
  auto arguments = std::make_shared<ExperimentArguments>();
  CLI::App* command = parent.add_subcommand(entry.name, entry.description);
  arguments->scale = experiments::to_string(entry.default_scale);
  command->add_option("--scale", arguments->scale, "smoke|paper")->capture_default_str();
  command->add_option("--seed", arguments->seed, "random seed")->capture_default_str();
  command->add_option("--out", arguments->out, "output directory")->required();
  // An explicit range: CLI11's NonNegativeNumber names the largest double in its message.
  command->add_option("--threads", arguments->threads, "jobs run at once (default 0: all cores)")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
  if (!entry.mnist_help.empty()) command->add_option("--mnist", arguments->mnist, entry.mnist_help);
  command->add_option("--shard", arguments->shard,
                      "I/N: run only share I of N of the jobs (every N-th), journaled in --out for `experiment merge`");
  command->add_flag("--resume", arguments->resume, "skip the jobs already journaled in --out by an interrupted run");
  command->add_flag("--quiet", arguments->quiet,
                    "no progress line (by default each phase's jobs done, rate and ETA go to stderr, in a log every "
                    "10 s)");
  for (const experiments::ExperimentOption& option : entry.options)
    command->add_option(option.name, arguments->own[option.name], option.help);
  arguments->command = command;
  command->callback([&entry, arguments] { run(entry, *arguments); });
}

void attach_all(CLI::App& parent) {
  for (const experiments::ExperimentEntry& entry : experiments::experiment_list()) attach(parent, entry);
}

}  // namespace
}  // namespace rbmix::cli::experiment_command

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::experiment_command::attach_all)
