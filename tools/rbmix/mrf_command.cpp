// rbmix mrf train: a fully visible, fully connected binary MRF (Boltzmann machine without hidden units, 000 §5.5)
// trained by the exact gradient, PCD with sequential unit-rule chains, or pseudo-likelihood, with early stopping on
// validation. Writes model.npz (the selected model, io/model_file.hpp), run.json (configuration, history, figures)
// and prints a summary (or the summary as JSON with --json).
// rbmix mrf loglik: the average log-likelihood of a data set under such a model, exact (log Z by enumeration) up to
// kMaxEnumeratedLogPartitionUnits units, the average log pseudo-likelihood beyond, labelled as such.
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/ignored_option.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/io/output_directory_lock.hpp"
#include "rbmix/model/boltzmann_machine_enumeration.hpp"
#include "rbmix/model/pseudo_likelihood.hpp"
#include "rbmix/operator_option.hpp"
#include "rbmix/option_checks.hpp"
#include "rbmix/report/run_record.hpp"
#include "rbmix/training/boltzmann_machine_trainer.hpp"

namespace rbmix::cli::mrf_command {
namespace {

struct MrfTrainArguments {
  std::string data;
  std::string validation;
  std::string test;
  std::string algorithm = "pl";
  std::string rule = "gibbs";
  std::string measure = "auto";
  BoltzmannMachineTrainingOptions options;
  std::string out;
  bool json = false;
};

const CLI::Range positive_updates(std::int64_t{1}, std::numeric_limits<std::int64_t>::max());

// Mean log-likelihood (exact, n ≤ 25) or mean log pseudo-likelihood of `data` under `model`.
nlohmann::json scores(const BoltzmannMachine& model, const BinaryMatrix& data, const std::optional<double>& log_z) {
  nlohmann::json result = {{"pseudo_log_likelihood", mean_log_pseudo_likelihood(model, data.cast<double>())}};
  if (log_z) result["log_likelihood"] = mean_log_likelihood(model, data, *log_z);
  return result;
}

BinaryMatrix load_checked(const std::string& path, const std::string& role, Eigen::Index columns) {
  const BinaryMatrix data = load_binary_matrix(path);
  require(data.rows() > 0, role + " " + path + " holds no samples");
  require(columns < 0 || data.cols() == columns, role + " " + path + " has " + std::to_string(data.cols()) +
                                                     " columns but the training data has " + std::to_string(columns));
  return data;
}

void run_mrf_train(const CLI::App& command, MrfTrainArguments arguments) {
  BoltzmannMachineTrainingOptions& options = arguments.options;
  options.algorithm = parse_boltzmann_machine_algorithm(arguments.algorithm);
  const bool pcd = options.algorithm == BoltzmannMachineAlgorithm::persistent_chains;
  const bool pl = options.algorithm == BoltzmannMachineAlgorithm::pseudo_likelihood;
  refuse_ignored_option(command, arguments.algorithm, pcd, "--operator", "pcd (exact and pl sample nothing)");
  refuse_ignored_option(command, arguments.algorithm, pcd, "--chains", "pcd");
  refuse_ignored_option(command, arguments.algorithm, pcd, "--sweeps", "pcd");
  refuse_ignored_option(command, arguments.algorithm, pl, "--batch", "pl (exact and pcd use every training row)");
  try {
    options.rule = parse_unit_rule(arguments.rule);
  } catch (const InputError& error) {
    throw InputError(std::string("--operator: ") + error.what());
  }
  options.validate();
  const BinaryMatrix training = load_checked(arguments.data, "--data", -1);
  const BinaryMatrix validation =
      arguments.validation.empty() ? training : load_checked(arguments.validation, "--validation", training.cols());
  const BinaryMatrix test =
      arguments.test.empty() ? BinaryMatrix() : load_checked(arguments.test, "--test", training.cols());
  const bool enumerable = training.cols() <= kMaxEnumeratedBoltzmannMachineUnits;
  if (arguments.measure == "auto") arguments.measure = enumerable ? "ll" : "pl";
  options.validation = arguments.measure == "ll" ? BoltzmannMachineValidation::exact_log_likelihood
                                                 : BoltzmannMachineValidation::pseudo_log_likelihood;
  const OutputDirectoryLock lock(arguments.out);
  const std::filesystem::path& out = lock.directory();

  const BoltzmannMachineTrainingSummary summary = train_boltzmann_machine(training, validation, options);

  nlohmann::json configuration = {{"data", arguments.data},
                                  {"validation", arguments.validation.empty() ? arguments.data : arguments.validation},
                                  {"test", arguments.test},
                                  {"units", training.cols()},
                                  {"training_samples", training.rows()},
                                  {"algorithm", to_string(options.algorithm)},
                                  {"validation_measure", arguments.measure},
                                  {"learning_rate", options.learning_rate},
                                  {"learning_rate_schedule", "linear decay to 0"},
                                  {"updates", options.updates},
                                  {"batch_size", options.batch_size},
                                  {"chains", options.chains},
                                  {"sweeps_per_update", options.sweeps_per_update},
                                  {"operator", to_string(options.rule)},
                                  {"evaluation_interval", options.evaluation_interval}};
  nlohmann::json record = make_run_record("mrf train", configuration, options.seed);
  nlohmann::json history = nlohmann::json::array();
  for (const auto& point : summary.history)
    history.push_back({{"update", point.update},
                       {"training_seconds", point.training_seconds},
                       {"validation_score", point.validation_score}});
  const std::optional<double> log_z =
      enumerable ? std::optional<double>(exact_log_partition(summary.best_model)) : std::nullopt;
  nlohmann::json result = {{"best_update", summary.best_update},
                           {"best_validation_score", summary.best_validation_score},
                           {"training_seconds", summary.history.back().training_seconds},
                           {"train", scores(summary.best_model, training, log_z)}};
  if (log_z) result["log_partition"] = *log_z;
  if (test.size() > 0) result["test"] = scores(summary.best_model, test, log_z);
  record["result"] = result;
  record["history"] = history;
  save_boltzmann_machine(out / "model.npz", summary.best_model,
                         {{"command", "mrf train"},
                          {"configuration", configuration},
                          {"seed", options.seed},
                          {"best_update", summary.best_update}});
  write_run_record(out, record, {"model.npz"});

  if (arguments.json) {
    std::cout << result.dump(2) << '\n';
    return;
  }
  std::cout << "trained a " << training.cols() << "-unit MRF by " << to_string(options.algorithm) << " ("
            << options.updates << " updates, " << summary.history.back().training_seconds << " s)\n"
            << "best validation " << (arguments.measure == "ll" ? "log-likelihood" : "log pseudo-likelihood") << ": "
            << summary.best_validation_score << " at update " << summary.best_update << '\n';
  if (log_z) std::cout << "train log-likelihood: " << result["train"]["log_likelihood"] << '\n';
  if (log_z && test.size() > 0) std::cout << "test log-likelihood: " << result["test"]["log_likelihood"] << '\n';
  std::cout << "wrote " << (out / "model.npz").string() << ", run.json\n";
}

struct MrfLoglikArguments {
  std::string model;
  std::string data;
  std::string measure = "auto";
  std::string out;
  bool json = false;
};

void run_mrf_loglik(const MrfLoglikArguments& arguments) {
  const LoadedBoltzmannMachine loaded = load_boltzmann_machine(arguments.model);
  const BoltzmannMachine& model = loaded.model;
  const BinaryMatrix data = load_checked(arguments.data, "--data", -1);
  require(data.cols() == model.size(), "--data " + arguments.data + " has " + std::to_string(data.cols()) +
                                           " columns but the model " + arguments.model + " has " +
                                           std::to_string(model.size()) + " units");
  const bool enumerable = model.size() <= kMaxEnumeratedLogPartitionUnits;
  require(arguments.measure != "ll" || enumerable,
          "--measure ll: the model has " + std::to_string(model.size()) + " units; exact log Z enumerates at most " +
              std::to_string(kMaxEnumeratedLogPartitionUnits) + " (use --measure pl, the pseudo-likelihood)");
  const bool exact = arguments.measure == "ll" || (arguments.measure == "auto" && enumerable);
  std::filesystem::path out;
  std::optional<OutputDirectoryLock> lock;
  if (!arguments.out.empty()) {
    out = arguments.out;
    lock.emplace(out);
  }

  nlohmann::json result = {
      {"model", arguments.model}, {"data", arguments.data}, {"units", model.size()}, {"samples", data.rows()}};
  if (exact) {
    const double log_z = exact_log_partition(model);
    result["measure"] = "log_likelihood";
    result["log_partition"] = log_z;
    result["log_partition_method"] = "exact enumeration of 2^" + std::to_string(model.size()) + " states";
    result["average_log_likelihood"] = mean_log_likelihood(model, data, log_z);
  } else {
    result["measure"] = "pseudo_log_likelihood";
    result["average_log_pseudo_likelihood"] = mean_log_pseudo_likelihood(model, data.cast<double>());
  }
  // JSON has no Inf or NaN (they print as null): a result beyond double's range is an error, not a number.
  for (const auto& [key, what] :
       {std::pair{"log_partition", "log Z"}, std::pair{"average_log_likelihood", "the average log-likelihood of "},
        std::pair{"average_log_pseudo_likelihood", "the average log pseudo-likelihood of "}})
    require(!result.contains(key) || std::isfinite(result[key].get<double>()), [&] {
      return arguments.model + ": " + what + (std::string(key) == "log_partition" ? "" : arguments.data) +
             " is not finite in double precision (parameters too large?)";
    });
  if (!out.empty()) {
    const nlohmann::json configuration = {
        {"model", arguments.model}, {"data", arguments.data}, {"measure", arguments.measure}};
    nlohmann::json record = make_run_record("mrf loglik", configuration, 0);  // deterministic: draws nothing
    record["result"] = result;
    write_run_record(out, record, {});
  }
  if (arguments.json) {
    std::cout << result.dump(2) << '\n';
    return;
  }
  std::cout << "model: " << arguments.model << " (" << model.size() << " units)\n"
            << "data: " << arguments.data << " (" << data.rows() << " samples)\n";
  if (exact)
    std::cout << "log Z (exact, enumerating 2^" << model.size() << " states): " << result["log_partition"] << '\n'
              << "average log-likelihood: " << result["average_log_likelihood"] << '\n';
  else
    std::cout << "average log pseudo-likelihood (not the log-likelihood: "
              << (enumerable ? std::string("--measure pl")
                             : std::to_string(model.size()) + " units are too many to enumerate log Z")
              << "): " << result["average_log_pseudo_likelihood"] << '\n';
  if (!out.empty()) std::cout << "wrote " << (out / "run.json").string() << '\n';
}

void attach_mrf_loglik(CLI::App& mrf) {
  auto arguments = std::make_shared<MrfLoglikArguments>();
  CLI::App* command = mrf.add_subcommand("loglik", "Average log-likelihood of data under an MRF (exact ≤ " +
                                                       std::to_string(kMaxEnumeratedLogPartitionUnits) +
                                                       " units, pseudo-likelihood beyond)");
  command->add_option("--model", arguments->model, "model file written by rbmix mrf train (model.npz)")->required();
  command->add_option("--data", arguments->data, "data (.npy, .csv, .png or a directory of .png; 0/1 values)")
      ->required();
  command
      ->add_option("--measure", arguments->measure,
                   "ll (exact, ≤ " + std::to_string(kMaxEnumeratedLogPartitionUnits) +
                       " units)|pl (pseudo-likelihood)|auto (ll where exact is possible)")
      ->check(CLI::IsMember({"auto", "ll", "pl"}))
      ->capture_default_str();
  command->add_option("--out", arguments->out, "directory for run.json (configuration and result)");
  command->add_flag("--json", arguments->json, "print the result as JSON");
  command->callback([arguments] { run_mrf_loglik(*arguments); });
}

void attach_mrf(CLI::App& app) {
  CLI::App* mrf = app.add_subcommand("mrf", "Fully visible binary MRFs (Boltzmann machines without hidden units)");
  mrf->require_subcommand(1);
  auto arguments = std::make_shared<MrfTrainArguments>();
  CLI::App* command =
      mrf->add_subcommand("train", "Train by exact gradient, PCD or pseudo-likelihood with early stopping");
  command->add_option("--data", arguments->data, "training data (.npy, .csv or .png; one 0/1 sample per row)")
      ->required();
  command->add_option("--validation", arguments->validation, "validation data (default: --data)");
  command->add_option("--test", arguments->test, "test data, scored with the selected model");
  command->add_option("--algo", arguments->algorithm, "exact|pcd|pl")->capture_default_str();
  command->add_option("--operator", arguments->rule, operator_help("pcd: the unit rule of the sequential sweeps"))
      ->capture_default_str();
  command->add_option("--measure", arguments->measure, "validation measure: ll (exact, ≤ 25 units)|pl|auto")
      ->check(CLI::IsMember({"auto", "ll", "pl"}))
      ->capture_default_str();
  command->add_option("--lr", arguments->options.learning_rate, "initial learning rate (decays linearly to 0)")
      ->capture_default_str();
  command->add_option("--updates", arguments->options.updates, "parameter updates")
      ->check(positive_updates)
      ->capture_default_str();
  command->add_option("--batch", arguments->options.batch_size, "pl: mini-batch size")
      ->check(positive_count)
      ->capture_default_str();
  command->add_option("--chains", arguments->options.chains, "pcd: persistent chains")
      ->check(positive_count)
      ->capture_default_str();
  command->add_option("--sweeps", arguments->options.sweeps_per_update, "pcd: sweeps per update")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()))
      ->capture_default_str();
  command->add_option("--eval-every", arguments->options.evaluation_interval, "evaluate validation every E updates")
      ->check(positive_updates)
      ->capture_default_str();
  command->add_option("--seed", arguments->options.seed, "random seed")->capture_default_str();
  command->add_option("--out", arguments->out, "output directory")->required();
  command->add_flag("--json", arguments->json, "print the result as JSON");
  command->callback([arguments, command] { run_mrf_train(*command, *arguments); });
  attach_mrf_loglik(*mrf);
}

}  // namespace
}  // namespace rbmix::cli::mrf_command

RBMIX_REGISTER_COMMAND("", rbmix::cli::mrf_command::attach_mrf)
