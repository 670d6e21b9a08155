#pragma once
// The front-end every `rbmix experiment` subcommand shares: the arguments all experiments take (--scale, --seed,
// --out, --threads and, for those that can read MNIST, --mnist) are registered and validated here once, and the
// run record is made here; each experiment's own file adds only its own options.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rbmix/experiments/experiment_scale.hpp"
#include "rbmix/experiments/job_shard.hpp"

namespace rbmix::cli {

// As typed on the command line.
struct ExperimentArguments {
  std::string scale;
  std::uint64_t seed = 1;
  std::string out;
  int threads = 0;
  std::string mnist;
  std::string shard;  // "I/N"; empty: every job
  bool resume = false;
  CLI::App* command = nullptr;  // the subcommand, whose parsed options identify the grid (job_grid.hpp)
};

// After validation.
struct ExperimentSettings {
  experiments::Scale scale = experiments::Scale::smoke;
  std::uint64_t seed = 1;
  int threads = 0;              // 0: all cores
  std::filesystem::path out;    // not created yet: the experiment validates its own options first
  std::filesystem::path mnist;  // empty: not given
  experiments::JobShard shard;
  bool resume = false;
};

struct SharedArgumentSpecification {
  experiments::Scale default_scale = experiments::Scale::smoke;
  // Empty: the experiment does not read MNIST and has no --mnist.
  std::string mnist_help;
};

// Registers the shared arguments on `command`; `arguments` must outlive the command.
void add_experiment_arguments(CLI::App& command, ExperimentArguments& arguments,
                              const SharedArgumentSpecification& specification);

// Throws InputError naming the argument that is wrong. Activates the command's job grid (job_grid.hpp): its jobs are
// journaled in --out, resumed with --resume, limited to --shard, and spread over the ranks under mpirun (where ranks
// other than 0 print nothing on stdout).
ExperimentSettings validate_experiment_arguments(const ExperimentArguments& arguments);

// The command line that reproduces the grid in `arguments` (the experiment's name, then its options as given),
// without --seed (the grid records the seed itself) and the options that do not change results (--out, --threads,
// --shard, --resume).
std::vector<std::string> grid_arguments(const ExperimentArguments& arguments);

// The run record of `rbmix experiment <name>`: `configuration` with the scale, thread count and MNIST directory,
// and how the jobs ran (ranks and their hosts, shard).
nlohmann::json make_experiment_record(const std::string& name, nlohmann::json configuration,
                                      const ExperimentSettings& settings);

// Integers written as a range "A:B" (A ≤ B) or a list "A,B,C"; throws InputError naming `option` otherwise.
std::vector<int> parse_integer_list(const std::string& text, const std::string& option);

}  // namespace rbmix::cli
