// rbmix loglik: the average log-likelihood of a data set under a model, with log Z computed exactly (enumerating
// one layer, docs/algorithms/estimation.md §5) or estimated by AIS (Salakhutdinov & Murray 2008). The estimators are
// alternatives in one option group; a new one adds a flag there and a branch in estimate().
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/estimation/ais.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/model/exact.hpp"
#include "rbmix/operator_option.hpp"
#include "rbmix/progress_option.hpp"
#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix::cli::loglik_command {
namespace {

struct LoglikArguments {
  std::string model;
  std::string data;
  bool exact = false;
  bool ais = false;
  std::string layer = "auto";
  AisOptions ais_options;
  std::string schedule = "linear";
  std::string rule = "gibbs";
  bool double_precision = false;
  bool json = false;
  bool force = false;
  ProgressFlags progress;
};

// Enumerating k units visits 2^k states at about one pass over the other layer each: beyond 2^32 states a job
// takes hours, so it runs only with --force. Beyond 2^24 states the estimated time is printed before the work.
constexpr int max_unforced_enumerated_units = 32;
constexpr int announced_enumerated_units = 24;
// The estimate times the enumeration of this many units of the same model and scales by 2^(k − this).
constexpr int calibration_units = 16;

std::string format_seconds(double seconds) {
  char text[64];
  if (seconds < 120.0)
    std::snprintf(text, sizeof text, "%.0f s", seconds);
  else if (seconds < 7200.0)
    std::snprintf(text, sizeof text, "%.0f min", seconds / 60.0);
  else
    std::snprintf(text, sizeof text, "%.1f h", seconds / 3600.0);
  return text;
}

// Seconds to enumerate `layer` (visible or hidden, resolved) of `rbm`, from timing its first calibration_units units.
double estimated_enumeration_seconds(const Rbm& rbm, EnumeratedLayer layer, int units) {
  Rbm part = rbm;
  if (layer == EnumeratedLayer::hidden) {
    part.weights = rbm.weights.topRows(calibration_units);
    part.hidden_bias = rbm.hidden_bias.head(calibration_units);
  } else {
    part.weights = rbm.weights.leftCols(calibration_units);
    part.visible_bias = rbm.visible_bias.head(calibration_units);
  }
  const auto start = std::chrono::steady_clock::now();
  exact_log_partition(part, layer);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return std::ldexp(seconds, units - calibration_units);
}

// Refuses a layer beyond max_enumerated_units, and one beyond max_unforced_enumerated_units without --force,
// naming the model; announces the estimated time of a long enumeration on stderr.
void check_enumeration_work(const LoglikArguments& arguments, const Rbm& rbm, EnumeratedLayer layer) {
  if (layer == EnumeratedLayer::automatic) layer = smaller_layer(rbm);
  const std::string name = layer == EnumeratedLayer::visible ? "visible" : "hidden";
  const auto units = static_cast<int>(layer == EnumeratedLayer::visible ? rbm.n_visible() : rbm.n_hidden());
  require(units <= max_enumerated_units, arguments.model + ": the " + name + " layer has " + std::to_string(units) +
                                             " units; exact enumeration handles at most " +
                                             std::to_string(max_enumerated_units) + " (use --ais)");
  if (units <= announced_enumerated_units) return;
  const std::string work = arguments.model + ": exact enumeration of the " + name + " layer visits 2^" +
                           std::to_string(units) + " states, estimated " +
                           format_seconds(estimated_enumeration_seconds(rbm, layer, units));
  require(units <= max_unforced_enumerated_units || arguments.force,
          work + "; more than 2^" + std::to_string(max_unforced_enumerated_units) +
              " states run only with --force (or use --ais)");
  std::cerr << "rbmix: " << work << '\n';
}

EnumeratedLayer parse_layer(const std::string& text) {
  if (text == "auto") return EnumeratedLayer::automatic;
  if (text == "visible") return EnumeratedLayer::visible;
  return EnumeratedLayer::hidden;
}

std::string layer_name(const Rbm& rbm, EnumeratedLayer layer) {
  if (layer == EnumeratedLayer::automatic) layer = smaller_layer(rbm);
  return layer == EnumeratedLayer::visible ? "visible" : "hidden";
}

nlohmann::json estimate(const LoglikArguments& arguments, const Rbm& rbm, const MatrixD& data) {
  if (arguments.exact) {
    const EnumeratedLayer layer = parse_layer(arguments.layer);
    check_enumeration_work(arguments, rbm, layer);
    const double log_partition = exact_log_partition(rbm, layer);
    return {{"method", "exact"},
            {"enumerated_layer", layer_name(rbm, layer)},
            {"log_partition", log_partition},
            {"average_log_likelihood", exact_average_log_likelihood(rbm, data, log_partition)}};
  }
  AisOptions options = arguments.ais_options;
  options.schedule = parse_ais_schedule(arguments.schedule);
  options.single_precision = !arguments.double_precision;
  options.rule = parse_unit_rule(arguments.rule);
  options.base_visible_bias = base_rate_visible_bias(data);
  ProgressReporter progress("loglik", "AIS distribution",
                            static_cast<std::int64_t>(ais_inverse_temperatures(options.schedule,
                                                                               options.distributions)
                                                          .size()) -
                                1,
                            arguments.progress.mode());
  options.on_distribution = [&progress](Eigen::Index done) { progress.update(done); };
  const AisResult ais = ais_log_partition(rbm, options);
  progress.finish();
  const LogLikelihoodEstimate likelihood = ais_average_log_likelihood(rbm, data, ais);
  return {{"method", "ais"},
          {"particles", options.particles},
          {"distributions", ais.distributions},
          {"schedule", to_string(options.schedule)},
          {"operator", to_string(options.rule)},
          {"seed", options.seed},
          {"precision", options.single_precision ? "float" : "double"},
          {"base", "data base rates (logit of the clipped data mean)"},
          {"log_partition", ais.log_partition},
          {"log_partition_band", {ais.log_partition_lower, ais.log_partition_upper}},
          {"effective_sample_size", ais.effective_sample_size},
          {"average_log_likelihood", likelihood.value},
          {"average_log_likelihood_band", {likelihood.lower, likelihood.upper}}};
}

void run_loglik(const LoglikArguments& arguments) {
  const LoadedRbm loaded = load_rbm(arguments.model);
  const BinaryMatrix binary = load_binary_matrix(arguments.data);
  require(binary.cols() == loaded.rbm.n_visible(), arguments.data + " has " + std::to_string(binary.cols()) +
                                                       " columns but " + arguments.model + " has " +
                                                       std::to_string(loaded.rbm.n_visible()) + " visible units");
  require(binary.rows() > 0, arguments.data + " holds no samples");
  const MatrixD data = to_real(binary);

  const auto start = std::chrono::steady_clock::now();
  nlohmann::json report = estimate(arguments, loaded.rbm, data);
  // JSON has no Inf or NaN (they print as null): a log Z that overflows double is an error, not a number.
  require(report["log_partition"].is_number() && std::isfinite(report["log_partition"].get<double>()),
          arguments.model + ": log Z is not finite in double precision (parameters too large?)");
  require(report["average_log_likelihood"].is_number() && std::isfinite(report["average_log_likelihood"].get<double>()),
          arguments.model + ": the average log-likelihood of " + arguments.data +
              " is not finite in double precision (parameters too large?)");
  report["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report["model"] = arguments.model;
  report["data"] = arguments.data;
  report["samples"] = binary.rows();
  report["n_visible"] = loaded.rbm.n_visible();
  report["n_hidden"] = loaded.rbm.n_hidden();

  if (arguments.json) {
    std::cout << report.dump(2) << '\n';
    return;
  }
  std::cout << "model: " << arguments.model << " (" << loaded.rbm.n_visible() << " visible, " << loaded.rbm.n_hidden()
            << " hidden)\n"
            << "data: " << arguments.data << " (" << binary.rows() << " samples)\n";
  if (arguments.exact) {
    std::cout << "log Z (exact, enumerating the " << report["enumerated_layer"].get<std::string>()
              << " layer): " << report["log_partition"] << '\n'
              << "average log-likelihood: " << report["average_log_likelihood"] << '\n';
  } else {
    std::cout << "log Z (AIS, " << report["particles"] << " particles, " << report["distributions"]
              << " distributions): " << report["log_partition"] << "  band " << report["log_partition_band"] << '\n'
              << "effective sample size: " << report["effective_sample_size"] << '\n'
              << "average log-likelihood: " << report["average_log_likelihood"] << "  band "
              << report["average_log_likelihood_band"] << '\n';
  }
  std::cout << "time: " << report["seconds"] << " s\n";
}

void attach_loglik(CLI::App& app) {
  auto arguments = std::make_shared<LoglikArguments>();
  CLI::App* command = app.add_subcommand("loglik", "Average log-likelihood of a data set: exact log Z or AIS");
  command->add_option("--model", arguments->model, "model file (.npz)")->required();
  command
      ->add_option("--data", arguments->data,
                   "data file (.npy, .csv, .png or a directory of .png; one 0/1 sample per row)")
      ->required();
  CLI::Option_group* method = command->add_option_group("method", "how log Z is obtained (exactly one)");
  method->add_flag("--exact", arguments->exact, "enumerate the smaller layer (at most 40 units)");
  method->add_flag("--ais", arguments->ais, "annealed importance sampling from the data base-rate model");
  method->require_option(1);
  command->add_flag("--force", arguments->force, "--exact: enumerate more than 2^32 states (hours of work)");
  command->add_option("--layer", arguments->layer, "--exact: layer to enumerate (auto|visible|hidden)")
      ->check(CLI::IsMember({"auto", "visible", "hidden"}))
      ->capture_default_str();
  // At least 2 particles: the band needs a standard error.
  command->add_option("--particles", arguments->ais_options.particles, "--ais: particles")
      ->check(CLI::Range(Eigen::Index{2}, std::numeric_limits<Eigen::Index>::max()))
      ->capture_default_str();
  command->add_option("--distributions", arguments->ais_options.distributions, "--ais: intermediate distributions K")
      ->check(CLI::Range(Eigen::Index{1}, std::numeric_limits<Eigen::Index>::max()))
      ->capture_default_str();
  command->add_option("--schedule", arguments->schedule, "--ais: linear|sm (Salakhutdinov & Murray)")
      ->check(CLI::IsMember({"linear", "sm"}))
      ->capture_default_str();
  command
      ->add_option("--operator", arguments->rule,
                   operator_help("--ais: the operator of the visible updates (h is drawn by Gibbs)"))
      ->capture_default_str();
  command->add_option("--seed", arguments->ais_options.seed, "--ais: random seed")->capture_default_str();
  command->add_flag("--double", arguments->double_precision, "--ais: sample in double instead of float");
  command->add_flag("--json", arguments->json, "print JSON");
  add_progress_options(*command, arguments->progress);
  command->callback([arguments] { run_loglik(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli::loglik_command

RBMIX_REGISTER_COMMAND("", rbmix::cli::loglik_command::attach_loglik)
