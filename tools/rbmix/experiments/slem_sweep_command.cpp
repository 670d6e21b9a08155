// rbmix experiment slem-sweep: 003 Fig. 3 (rbmix/experiments/slem_sweep_experiment.hpp). Reads the options, runs the
// core, writes its files and the run record, and prints the share table.
#include <iostream>
#include <limits>
#include <memory>

#include "experiment_front_end.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/experiments/slem_sweep_experiment.hpp"

namespace rbmix::cli {
namespace {

struct SlemSweepArguments {
  ExperimentArguments shared;
  std::string sizes;
  std::string bounds = "1:10";
  int count = 0;
};

void run(const SlemSweepArguments& arguments) {
  const ExperimentSettings settings = validate_experiment_arguments(arguments.shared);
  experiments::SlemSweepOptions options = experiments::slem_sweep_options(settings.scale, settings.seed);
  if (!arguments.sizes.empty()) options.sizes = parse_integer_list(arguments.sizes, "--sizes");
  options.weight_bounds = parse_integer_list(arguments.bounds, "--c");
  if (arguments.count != 0) options.rbms_per_setting = arguments.count;
  options.threads = settings.threads;
  options.validate();
  experiments::ResultDirectory out(settings.out);
  nlohmann::json record = make_experiment_record("slem-sweep", experiments::to_json(options), settings);

  const experiments::SlemSweepResult result = experiments::run_slem_sweep(options);
  experiments::write_slem_sweep(options, result, out);
  record["seconds"] = result.seconds;
  out.write_run_record(record);

  std::cout << "share of RBMs with SLEM(T) < SLEM(G) (003 Fig. 3), " << options.rbms_per_setting
            << " RBMs per setting\n";
  experiments::slem_sweep_share_table(result).print(std::cout, 4);
  std::cout << "time: " << result.seconds << " s; wrote slem_sweep.csv, slem_per_rbm.csv, slem_sweep.svg, run.json in "
            << out.path().string() << '\n';
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<SlemSweepArguments>();
  CLI::App* command = parent.add_subcommand("slem-sweep", "003 Fig. 3: share of random RBMs where SLEM(T) < SLEM(G)");
  add_experiment_arguments(*command, arguments->shared, {experiments::Scale::paper, ""});
  command->add_option("--sizes", arguments->sizes, "m = n values, e.g. 2,3,4 (default: paper 2,3,4; smoke 2,3)");
  command->add_option("--c", arguments->bounds, "weight bounds, A:B or A,B,C")->capture_default_str();
  command->add_option("--count", arguments->count, "RBMs per (size, c) (default: paper 100; smoke 10)")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  command->callback([arguments] { run(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach)
