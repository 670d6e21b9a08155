#pragma once
// The front-end every `rbmix experiment` subcommand shares: the arguments all experiments take (--scale, --seed,
// --out, --threads and, for those that can read MNIST, --mnist) are registered and validated here once, and the
// run record is made here; each experiment's own file adds only its own options.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "rbmix/experiments/experiment_scale.hpp"

namespace rbmix::cli {

// As typed on the command line.
struct ExperimentArguments {
  std::string scale;
  std::uint64_t seed = 1;
  std::string out;
  int threads = 0;
  std::string mnist;
};

// After validation.
struct ExperimentSettings {
  experiments::Scale scale = experiments::Scale::smoke;
  std::uint64_t seed = 1;
  int threads = 0;              // 0: all cores
  std::filesystem::path out;    // not created yet: the experiment validates its own options first
  std::filesystem::path mnist;  // empty: not given
};

struct SharedArgumentSpecification {
  experiments::Scale default_scale = experiments::Scale::smoke;
  // Empty: the experiment does not read MNIST and has no --mnist.
  std::string mnist_help;
};

// Registers the shared arguments on `command`; `arguments` must outlive the command.
void add_experiment_arguments(CLI::App& command, ExperimentArguments& arguments,
                              const SharedArgumentSpecification& specification);

// Throws InputError naming the argument that is wrong.
ExperimentSettings validate_experiment_arguments(const ExperimentArguments& arguments);

// The run record of `rbmix experiment <name>`: `configuration` with the scale, thread count and MNIST directory.
nlohmann::json make_experiment_record(const std::string& name, nlohmann::json configuration,
                                      const ExperimentSettings& settings);

}  // namespace rbmix::cli
