// rbmix experiment samplers: 001 §5 (rbmix/experiments/samplers_experiment.hpp), the ISL of Gibbs, flip-the-state,
// rates-FPCD (also with flip-the-state sweeps), rates-herding, herding and sample penalization samples against N,
// each sampler tuned on validation ISL, on MNIST (--mnist), Fashion-MNIST (--fashion-mnist) or, without either, a
// synthetic image set. Reads the options, runs the core, writes its files and run.json, and prints the table with
// 001's claims beside what this run measured.
#include <chrono>
#include <iostream>
#include <limits>
#include <memory>

#include "experiment_front_end.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/experiments/samplers_experiment.hpp"

namespace rbmix::cli {
namespace {

// An explicit range: CLI11's PositiveNumber names the largest double in its message.
const CLI::Range kPositiveCount(std::int64_t{1}, std::numeric_limits<std::int64_t>::max());

struct SamplersArguments {
  ExperimentArguments shared;
  std::string fashion_mnist;
  std::vector<Eigen::Index> hidden;
  std::vector<double> learning_rates;
  std::int64_t updates = 0;
  Eigen::Index samples = 0;
  Eigen::Index selection_samples = 0;
  Eigen::Index validation_rows = 10000;
  Eigen::Index test_rows = 2000;
  bool image_rows_given = false;  // --validation-rows or --test-rows: refused without image data
};

void run(const SamplersArguments& arguments) {
  const ExperimentSettings settings = validate_experiment_arguments(arguments.shared);
  std::vector<experiments::SamplersDataSet> data_sets;
  if (!settings.mnist.empty())
    data_sets.push_back(
        experiments::image_samplers_data("mnist", settings.mnist, arguments.validation_rows, arguments.test_rows));
  if (!arguments.fashion_mnist.empty()) {
    require(std::filesystem::is_directory(arguments.fashion_mnist),
            "--fashion-mnist: '" + arguments.fashion_mnist + "' is not a directory");
    data_sets.push_back(experiments::image_samplers_data("fashion-mnist", arguments.fashion_mnist,
                                                         arguments.validation_rows, arguments.test_rows));
  }
  require(!data_sets.empty() || !arguments.image_rows_given,
          "--validation-rows and --test-rows apply to image data only (--mnist or --fashion-mnist)");
  experiments::SamplersOptions options =
      experiments::samplers_options(settings.scale, settings.seed, std::move(data_sets));
  options.threads = settings.threads;
  if (!arguments.hidden.empty()) options.hidden_sizes = arguments.hidden;
  if (!arguments.learning_rates.empty()) options.learning_rates = arguments.learning_rates;
  if (arguments.updates != 0) options.updates = arguments.updates;
  if (arguments.samples != 0) options.samples = arguments.samples;
  if (arguments.selection_samples != 0) options.selection_samples = arguments.selection_samples;
  options.validate();
  experiments::ResultDirectory out(settings.out);
  std::cout << "samplers (001 §5): " << options.data_sets.size() << " data set(s), "
            << options.hidden_sizes.size() * options.learning_rates.size() << " FPCD models each (" << options.updates
            << " updates), " << options.samplers.size() << " samplers, N = " << options.samples << "\n";
  const auto start = std::chrono::steady_clock::now();
  const experiments::SamplersResult result = experiments::run_samplers(options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  experiments::write_samplers(options, result, out);
  nlohmann::json record = make_experiment_record("samplers", experiments::to_json(options), settings);
  if (!arguments.fashion_mnist.empty()) record["fashion_mnist_directory"] = arguments.fashion_mnist;
  record["seconds"] = seconds;
  out.write_run_record(record);

  for (const auto& model : result.models)
    if (result.data_sets[model.data_set].chosen_model == static_cast<std::size_t>(&model - result.models.data()))
      std::cout << options.data_sets[model.data_set].name << ": model " << model.hidden << " hidden, lr "
                << model.learning_rate << " (validation ISL of Gibbs samples " << model.selection_isl << ")\n";
  experiments::samplers_table(options, result).print(std::cout, 5);
  std::cout << "\n001's claims against this run:\n";
  experiments::samplers_claims_table(options, result).print(std::cout, 5);
  std::cout << "time " << seconds << " s; wrote " << out.path().string()
            << "/samplers.csv, samplers_claims.csv, samplers_tuning.csv, samplers_models.csv, samplers_curves.csv, "
               "isl_*.svg, *.png, run.json\n";
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<SamplersArguments>();
  CLI::App* command = parent.add_subcommand(
      "samplers", "001 §5: ISL against N of Gibbs, rates-FPCD, rates-herding, herding and SP samples");
  add_experiment_arguments(*command, arguments->shared,
                           {experiments::Scale::smoke, "MNIST directory (IDX files); else a synthetic image set"});
  command->add_option("--fashion-mnist", arguments->fashion_mnist,
                      "Fashion-MNIST directory (IDX files, e.g. from `rbmix data fetch fashion-mnist`)");
  command->add_option("--hidden", arguments->hidden, "override the hidden sizes of the model grid")->delimiter(',');
  command->add_option("--learning-rates", arguments->learning_rates, "override the learning rates of the model grid")
      ->delimiter(',');
  command->add_option("--updates", arguments->updates, "override the FPCD updates per model")->check(kPositiveCount);
  command->add_option("--samples", arguments->samples, "override N, the samples per sampler setting")
      ->check(kPositiveCount);
  command
      ->add_option("--selection-samples", arguments->selection_samples,
                   "override the Gibbs samples that choose the model")
      ->check(kPositiveCount);
  auto* validation_rows =
      command->add_option("--validation-rows", arguments->validation_rows, "validation images used (image data)")
          ->capture_default_str();
  auto* test_rows =
      command->add_option("--test-rows", arguments->test_rows, "test images the ISL is reported on (image data)")
          ->capture_default_str();
  command->callback([arguments, validation_rows, test_rows] {
    arguments->image_rows_given = validation_rows->count() > 0 || test_rows->count() > 0;
    run(*arguments);
  });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach)
