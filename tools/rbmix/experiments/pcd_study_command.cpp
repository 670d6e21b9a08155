// rbmix experiment pcd-study: 000 §5 (rbmix/experiments/pcd_study_experiment.hpp): CD-1, CD-10, MF-CD and PCD with
// Gibbs and flip-the-state chains on a small RBM (exact LL), a large RBM (AIS LL) and a classification RBM (test
// error), and PCD against pseudo-likelihood and the exact gradient on a fully visible MRF. Reads the options, runs
// the core, writes its files and run.json, and prints the summary with what 000 reports.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>

#include "experiment_front_end.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/experiments/pcd_study_experiment.hpp"

namespace rbmix::cli {
namespace {

struct PcdStudyArguments {
  ExperimentArguments shared;
  std::vector<std::string> parts;
  int trials = 0;
  std::int64_t updates = 0;
  std::int64_t mrf_updates = 0;
  std::vector<double> learning_rates;
  std::vector<double> mrf_learning_rates;
  Eigen::Index training_rows = 0;
  Eigen::Index evaluation_rows = 0;
  Eigen::Index patches = 0;
  std::vector<int> hidden;  // exact, ais, classification
  Eigen::Index ais_distributions = 0;
};

void run(const PcdStudyArguments& arguments) {
  const ExperimentSettings settings = validate_experiment_arguments(arguments.shared);
  experiments::PcdStudyOptions options = experiments::pcd_study_options(settings.scale, settings.seed);
  options.threads = settings.threads;
  options.mnist = settings.mnist;
  require(settings.scale == experiments::Scale::smoke || !options.mnist.empty(),
          "--scale paper: pcd-study runs 000's MNIST setting; give the MNIST directory with --mnist DIR");
  if (!arguments.parts.empty()) {
    options.parts.clear();
    for (const auto& part : arguments.parts) options.parts.push_back(experiments::parse_pcd_study_part(part));
  }
  if (arguments.trials != 0) options.trials = arguments.trials;
  if (arguments.updates != 0) options.updates = arguments.updates;
  if (arguments.mrf_updates != 0) options.mrf_updates = arguments.mrf_updates;
  if (!arguments.learning_rates.empty()) options.learning_rates = arguments.learning_rates;
  if (!arguments.mrf_learning_rates.empty()) options.mrf_learning_rates = arguments.mrf_learning_rates;
  if (arguments.training_rows != 0) options.training_rows = arguments.training_rows;
  if (arguments.evaluation_rows != 0) options.evaluation_rows = arguments.evaluation_rows;
  if (arguments.patches != 0) options.patches = arguments.patches;
  if (arguments.ais_distributions != 0) options.ais_distributions = arguments.ais_distributions;
  if (!arguments.hidden.empty()) {
    require(arguments.hidden.size() == 3, "--hidden: give three counts: exact,ais,classification");
    options.exact_hidden = arguments.hidden[0];
    options.ais_hidden = arguments.hidden[1];
    options.classification_hidden = arguments.hidden[2];
  }
  options.validate();
  experiments::ResultDirectory out(settings.out);
  std::cout << "pcd-study (000 §5): " << (options.mnist.empty() ? "synthetic Artificial Modes" : "MNIST") << ", "
            << options.updates << " updates, " << options.trials << " trials per learning rate\n";
  const auto start = std::chrono::steady_clock::now();
  const experiments::PcdStudyResult result = experiments::run_pcd_study(options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  experiments::write_pcd_study(options, result, out);
  nlohmann::json configuration = experiments::to_json(options);
  nlohmann::json record = make_experiment_record("pcd-study", configuration, settings);
  record["seconds"] = seconds;
  record["mrf_training_entropy"] = result.mrf_training_entropy;
  out.write_run_record(record);

  experiments::pcd_study_summary_table(result).print(std::cout, 5);
  std::cout << "000 reports: PCD best given time for the 25- and 500-hidden RBMs (Figs. 1-2) and the classification "
               "RBM (Fig. 3, 1.04 % with longer runs); MRF: PL best -5.35 within seconds, PCD and the exact gradient "
               "about -5.15, training-data entropy 4.78 nats.\n";
  if (std::find(options.parts.begin(), options.parts.end(), experiments::PcdStudyPart::mrf) != options.parts.end())
    std::cout << "MRF training-data entropy: " << result.mrf_training_entropy << " nats\n";
  std::cout << "time " << seconds << " s; wrote " << (out.path() / "pcd_study.csv").string()
            << ", pcd_study_curves.csv, run.json and one SVG per part\n";
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<PcdStudyArguments>();
  CLI::App* command = parent.add_subcommand(
      "pcd-study", "000 §5: CD-1, CD-10, MF-CD, PCD (Gibbs and flip) on RBMs, a classifier and an MRF");
  add_experiment_arguments(*command, arguments->shared,
                           {experiments::Scale::smoke,
                            "run on MNIST in this directory (needed for --scale paper): 50 000 / 10 000 / 10 000, "
                            "training rows re-binarised at every use; MRF on 5×5 patches thresholded at 1/2"});
  command->add_option("--parts", arguments->parts, "parts to run: exact,ais,classification,mrf (default: all)")
      ->delimiter(',');
  command->add_option("--trials", arguments->trials, "override the trials per learning rate")
      ->check(CLI::PositiveNumber);
  command->add_option("--updates", arguments->updates, "override the updates of the RBM runs")
      ->check(CLI::PositiveNumber);
  command->add_option("--mrf-updates", arguments->mrf_updates, "override the updates of the MRF runs")
      ->check(CLI::PositiveNumber);
  command->add_option("--learning-rates", arguments->learning_rates, "override the RBM learning rates, e.g. 0.01,0.03")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  command->add_option("--mrf-learning-rates", arguments->mrf_learning_rates, "override the MRF learning rates")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  command->add_option("--training-rows", arguments->training_rows, "override the training rows")
      ->check(CLI::PositiveNumber);
  command->add_option("--evaluation-rows", arguments->evaluation_rows, "override the validation and test rows each")
      ->check(CLI::PositiveNumber);
  command->add_option("--patches", arguments->patches, "override the number of MRF patches")
      ->check(CLI::PositiveNumber);
  command->add_option("--hidden", arguments->hidden, "override the hidden units: exact,ais,classification")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  command->add_option("--ais-distributions", arguments->ais_distributions, "override the AIS distributions K")
      ->check(CLI::PositiveNumber);
  command->callback([arguments] { run(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach)
