// rbmix mixing: samples energy traces of a model with one operator and reports the integrated autocorrelation
// time by the three estimators of docs/algorithms.md §6 with their bands, the autocorrelation function (CSV) and its
// plot (SVG). With --out DIR: mixing.json (run record and results), autocorrelation.csv, autocorrelation.svg.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "rbmix/analysis/autocorrelation.hpp"
#include "rbmix/analysis/integrated_autocorrelation_time.hpp"
#include "rbmix/analysis/operator_analysis.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/experiments/random_start_energy_traces.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/io/npy.hpp"
#include "rbmix/operator_option.hpp"
#include "rbmix/report/run_record.hpp"
#include "rbmix/report/svg_plot.hpp"
#include "rbmix/report/table.hpp"

namespace rbmix::cli {
namespace {

nlohmann::json to_json(const analysis::IntegratedTimeEstimate& estimate) {
  const auto number_or_null = [](double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
  };
  return {{"method", estimate.method},
          {"time", number_or_null(estimate.time)},
          {"lower", number_or_null(estimate.lower)},
          {"upper", number_or_null(estimate.upper)},
          {"cutoff", estimate.cutoff},
          {"trusted", estimate.trusted},
          {"warning", estimate.warning}};
}

Table integrated_time_table(const std::vector<analysis::IntegratedTimeEstimate>& estimates) {
  Table table({"estimator", "tau", "lower", "upper", "cutoff", "trusted", "warning"});
  for (const auto& estimate : estimates)
    table.add_row({estimate.method, estimate.time, estimate.lower, estimate.upper,
                   static_cast<long long>(estimate.cutoff), estimate.trusted,
                   estimate.warning});
  return table;
}

Eigen::Index autocorrelation_lags_to_report(const std::vector<analysis::IntegratedTimeEstimate>& estimates,
                                            Eigen::Index steps) {
  Eigen::Index largest = 0;
  for (const auto& estimate : estimates) largest = std::max(largest, estimate.cutoff);
  return std::min(steps - 1, std::max<Eigen::Index>(100, 3 * largest));
}

struct MixingArguments {
  std::string model;
  std::string rule = "gibbs";
  Eigen::Index steps = 100000;
  Eigen::Index chains = 1;
  Eigen::Index burn_in = 1000;
  std::uint64_t seed = 1;
  std::string trace_out;
  std::string out;
  bool json = false;
  bool single_precision = false;
};

// The file can be written: it is not a directory and its directory exists. Checked before sampling, so that a bad
// location fails at once and never after other outputs were written.
void require_writable_file_location(const std::filesystem::path& file, const std::string& option) {
  std::error_code error;
  require(!std::filesystem::is_directory(file, error), option + " " + file.string() + ": is a directory, not a file");
  const std::filesystem::path directory = file.parent_path();
  require(directory.empty() || std::filesystem::is_directory(directory, error),
          option + " " + file.string() + ": the directory " + directory.string() + " does not exist");
}

void run_mixing(const MixingArguments& arguments) {
  const LoadedRbm loaded = load_rbm(arguments.model);
  const analysis::OperatorSpecification specification = analysis::parse_operator_specification(arguments.rule);
  experiments::EnergyTraceRequest request{specification.rule, arguments.steps, arguments.chains,
                                          arguments.burn_in,  arguments.seed,  arguments.single_precision};
  require(request.burn_in >= 0, "mixing: --burn-in must not be negative");
  if (!arguments.trace_out.empty()) require_writable_file_location(arguments.trace_out, "--trace-out");
  const std::filesystem::path out =
      arguments.out.empty() ? std::filesystem::path{} : prepare_output_directory(arguments.out);

  const MatrixD traces = specification.modified ? experiments::sample_modified_sweep_energy_traces(loaded.rbm, request)
                                                : experiments::sample_energy_traces(loaded.rbm, request);
  require(traces.allFinite(), arguments.model + ": the sampled energies E(v, h) are not all finite in " +
                                  (request.single_precision ? "float" : "double") +
                                  " precision (parameters too large)");
  if (!arguments.trace_out.empty()) write_npy(arguments.trace_out, matrix_to_npy(traces));

  const analysis::TraceAutocovariance covariance = analysis::trace_autocovariance(traces);
  const std::vector<analysis::IntegratedTimeEstimate> estimates =
      analysis::integrated_autocorrelation_times(covariance);
  const Eigen::Index lags = autocorrelation_lags_to_report(estimates, arguments.steps);
  const bool constant = !(covariance.mean_autocovariance[0] > 0.0);

  nlohmann::json configuration = {{"model", arguments.model},
                                  {"operator", to_string(specification)},
                                  {"steps", request.steps},
                                  {"chains", request.chains},
                                  {"burn_in", request.burn_in},
                                  {"float", request.single_precision},
                                  {"start", "visible units uniform at random"}};
  nlohmann::json results = nlohmann::json::array();
  for (const auto& estimate : estimates) results.push_back(to_json(estimate));
  nlohmann::json record = make_run_record("mixing", configuration, request.seed);
  record["integrated_autocorrelation_times"] = results;
  record["energy_mean"] = traces.mean();

  if (!arguments.out.empty()) {
    write_json_file(out / "mixing.json", record);
    if (!constant) {
      const VectorD correlation = covariance.mean_autocovariance / covariance.mean_autocovariance[0];
      Table acf({"lag", "autocorrelation"});
      PlotSeries series{to_string(specification), {}, {}, {}, {}, false};
      for (Eigen::Index lag = 0; lag <= lags; ++lag) {
        acf.add_row({static_cast<long long>(lag), correlation[lag]});
        series.x.push_back(static_cast<double>(lag));
        series.y.push_back(correlation[lag]);
      }
      acf.write_csv(out / "autocorrelation.csv");
      write_svg_plot(out / "autocorrelation.svg", {series},
                     autocorrelation_plot_options("Autocorrelation of the energy"));
    }
  }
  if (arguments.json) {
    std::cout << record.dump(2) << '\n';
  } else {
    std::cout << "operator " << to_string(specification) << ", " << request.chains << " chain(s) × " << request.steps
              << " steps after " << request.burn_in << " burn-in sweeps\n";
    integrated_time_table(estimates).print(std::cout);
    if (!arguments.out.empty()) std::cout << "wrote " << arguments.out << "/mixing.json, autocorrelation.csv/.svg\n";
  }
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<MixingArguments>();
  CLI::App* command = parent.add_subcommand(
      "mixing", "Integrated autocorrelation time of the energy under an operator (three estimators)");
  command->add_option("--model", arguments->model, "model file (.npz)")->required();
  command
      ->add_option("--operator", arguments->rule,
                   operator_help() + "or modified:RULE, the modified sweep of RULE (001 §3), for at most " +
                       std::to_string(experiments::max_modified_sweep_units) + " units")
      ->capture_default_str();
  command->add_option("--steps", arguments->steps, "recorded sweeps per chain")->capture_default_str();
  command->add_option("--chains", arguments->chains, "independent chains")->capture_default_str();
  command->add_option("--burn-in", arguments->burn_in, "unrecorded sweeps first")->capture_default_str();
  command->add_option("--seed", arguments->seed, "random seed")->capture_default_str();
  command->add_option("--trace-out", arguments->trace_out, "write the energy traces (steps × chains) as .npy");
  command->add_option("--out", arguments->out, "output directory for mixing.json and the autocorrelation");
  command->add_flag("--json", arguments->json, "print the results as JSON");
  command->add_flag("--float", arguments->single_precision, "run the chains in float");
  command->callback([arguments] { run_mixing(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("", rbmix::cli::attach)
