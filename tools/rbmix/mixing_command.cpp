// rbmix mixing: samples energy traces of a model with one operator, or reads any series from a file (--trace), and
// reports the integrated autocorrelation time: the recommended estimate with its 95 % interval and trust verdict
// first, then every estimator of docs/algorithms/mixing-metrics.md §6 beside it, the rank-normalised split R̂ and the
// bulk and tail ESS (with --superchains K, the nested R̂ of K superchains of chains started from one shared state each),
// the autocorrelation function (CSV) and its plot (SVG). With --out DIR: run.json (run record, results and the list of
// files), autocorrelation.csv and autocorrelation.svg (unless the series is constant).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "rbmix/analysis/autocorrelation.hpp"
#include "rbmix/analysis/convergence_diagnostics.hpp"
#include "rbmix/analysis/integrated_autocorrelation_time.hpp"
#include "rbmix/analysis/operator_analysis.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data_option.hpp"
#include "rbmix/experiments/random_start_energy_traces.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/io/npy.hpp"
#include "rbmix/io/output_directory_lock.hpp"
#include "rbmix/io/trace_file.hpp"
#include "rbmix/operator_option.hpp"
#include "rbmix/progress_option.hpp"
#include "rbmix/report/run_record.hpp"
#include "rbmix/report/svg_plot.hpp"
#include "rbmix/report/table.hpp"

namespace rbmix::cli::mixing_command {
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
    table.add_row({analysis::estimator_label(estimate.method), estimate.time, estimate.lower, estimate.upper,
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
  std::string trace;  // a series from a file instead of a model
  std::string rule = "gibbs";
  Eigen::Index steps = 100000;
  Eigen::Index chains = 1;
  Eigen::Index superchains = 0;  // 0: no superchains, no nested R̂
  Eigen::Index burn_in = 1000;
  std::string start_states;  // chains' start rows instead of the uniform start
  bool chains_given = false;
  std::uint64_t seed = 1;
  std::string trace_out;
  std::string out;
  bool json = false;
  bool single_precision = false;
  ProgressFlags progress;
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

std::string shown_time(const analysis::IntegratedTimeEstimate& estimate) {
  char text[96];
  std::snprintf(text, sizeof text, "%.4g [%.4g, %.4g]", estimate.time, estimate.lower, estimate.upper);
  return text;
}

// The traces to estimate from (steps × chains), what run.json records of where they came from, and a line saying so.
struct MixingTraces {
  MatrixD traces;
  nlohmann::json configuration;
  std::string source;
};

MixingTraces traces_from_file(const MixingArguments& arguments) {
  MixingTraces read{read_trace_file(arguments.trace, analysis::min_mixing_steps), {}, "trace " + arguments.trace};
  read.configuration = {{"trace", arguments.trace}, {"steps", read.traces.rows()}, {"chains", read.traces.cols()}};
  return read;
}

// The energy traces of chains under the model and operator, with a progress line over burn-in and recording.
MixingTraces sample_model_traces(const MixingArguments& arguments) {
  const LoadedRbm loaded = load_rbm(arguments.model);
  const analysis::OperatorSpecification specification = analysis::parse_operator_specification(arguments.rule);
  experiments::EnergyTraceRequest request{specification.rule, arguments.steps, arguments.chains,
                                          arguments.burn_in,  arguments.seed,  arguments.single_precision,
                                          {}};
  request.superchains = arguments.superchains;
  if (!arguments.start_states.empty()) {
    request.start_visible = load_rows(arguments.start_states, false, "start states must be 0/1 visible states");
    if (!arguments.chains_given) request.chains = request.start_visible.rows();
    require(request.start_visible.rows() == request.chains, [&] {
      return "mixing: --start-states " + arguments.start_states + " holds " +
             std::to_string(request.start_visible.rows()) + " rows, one per chain, but --chains is " +
             std::to_string(request.chains);
    });
  }
  require(request.burn_in >= 0, "mixing: --burn-in must not be negative");
  require(request.steps >= analysis::min_mixing_steps, [&] {
    return "mixing: --steps " + std::to_string(request.steps) + ": each chain needs at least " +
           std::to_string(analysis::min_mixing_steps) + " steps (the estimators split it into halves of 4)";
  });
  ProgressReporter progress("mixing", "sweep", request.burn_in + request.steps, arguments.progress.mode());
  request.on_sweep = [&progress, &request](Eigen::Index done) {
    progress.update(done, done <= request.burn_in ? "burn-in" : "recording");
  };
  MixingTraces sampled;
  sampled.configuration = {{"model", arguments.model},
                           {"operator", to_string(specification)},
                           {"steps", request.steps},
                           {"chains", request.chains},
                           {"burn_in", request.burn_in},
                           {"float", request.single_precision},
                           {"superchains", request.superchains},
                           {"start", !arguments.start_states.empty() ? "the rows of " + arguments.start_states +
                                                                           ", hidden units drawn from p(h | v)"
                                     : request.superchains > 0
                                         ? "visible units uniform at random, one state per superchain"
                                         : "visible units uniform at random"}};
  sampled.source = "operator " + to_string(specification) + ", " + std::to_string(request.chains) +
                   " chain(s) × " + std::to_string(request.steps) + " steps after " +
                   std::to_string(request.burn_in) + " burn-in sweeps" +
                   (arguments.start_states.empty() ? "" : ", started from " + arguments.start_states);
  sampled.traces = specification.modified ? experiments::sample_modified_sweep_energy_traces(loaded.rbm, request)
                                          : experiments::sample_energy_traces(loaded.rbm, request);
  progress.finish();
  require(sampled.traces.allFinite(), arguments.model + ": the sampled energies E(v, h) are not all finite in " +
                                          (request.single_precision ? "float" : "double") +
                                          " precision (parameters too large)");
  return sampled;
}

// The nested R̂ of the traces' chains in `superchains` groups of consecutive chains; NaN without superchains.
double nested_rhat(const MatrixD& traces, Eigen::Index superchains) {
  if (superchains == 0) return std::numeric_limits<double>::quiet_NaN();
  return analysis::rank_normalised_split_nested_potential_scale_reduction(
      traces, analysis::consecutive_superchains(traces.cols(), superchains));
}

nlohmann::json mixing_record(const MixingArguments& arguments, const MixingTraces& input,
                             const analysis::MixingDiagnostics& diagnostics, double nested_reduction) {
  const auto number_or_null = [](double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
  };
  nlohmann::json results = nlohmann::json::array();
  for (const auto& estimate : diagnostics.estimates) results.push_back(to_json(estimate));
  nlohmann::json record = make_run_record("mixing", input.configuration, arguments.seed);
  record["integrated_autocorrelation_time"] = to_json(diagnostics.recommended());
  record["integrated_autocorrelation_times"] = results;
  record["potential_scale_reduction"] = number_or_null(diagnostics.potential_scale_reduction);
  record["nested_potential_scale_reduction"] = number_or_null(nested_reduction);
  record["bulk_effective_sample_size"] = number_or_null(diagnostics.bulk_effective_sample_size);
  record["tail_effective_sample_size"] = number_or_null(diagnostics.tail_effective_sample_size);
  record["energy_mean"] = input.traces.mean();
  return record;
}

// autocorrelation.csv and its plot up to `lags`; returns the files written.
std::vector<std::string> write_autocorrelation(const std::filesystem::path& out, const MixingArguments& arguments,
                                               const analysis::TraceAutocovariance& covariance, Eigen::Index lags) {
  const VectorD correlation = covariance.mean_autocovariance / covariance.mean_autocovariance[0];
  Table acf({"lag", "autocorrelation"});
  PlotSeries series{arguments.trace.empty() ? arguments.rule : arguments.trace, {}, {}, {}, {}, false};
  for (Eigen::Index lag = 0; lag <= lags; ++lag) {
    acf.add_row({static_cast<long long>(lag), correlation[lag]});
    series.x.push_back(static_cast<double>(lag));
    series.y.push_back(correlation[lag]);
  }
  acf.write_csv(out / "autocorrelation.csv");
  write_svg_plot(out / "autocorrelation.svg", {series},
                 autocorrelation_plot_options(arguments.trace.empty() ? "Autocorrelation of the energy"
                                                                      : "Autocorrelation of the trace"));
  return {"autocorrelation.csv", "autocorrelation.svg"};
}

// Fewer chains than this get the advice to run more: the calibration meets its goal with 16 and 64.
constexpr Eigen::Index multi_chain_advice = 16;

void print_mixing_summary(const std::string& source, const analysis::MixingDiagnostics& diagnostics,
                          Eigen::Index superchains, double nested_reduction) {
  const analysis::IntegratedTimeEstimate& headline = diagnostics.recommended();
  std::cout << source << "\n";
  std::cout << "tau = " << shown_time(headline) << " (" << headline.method << ", 95 % interval), "
            << (headline.trusted ? "trusted" : "NOT trusted: " + headline.warning) << "\n";
  std::cout << "R-hat (rank-normalised, split) " << diagnostics.potential_scale_reduction << ", bulk ESS "
            << diagnostics.bulk_effective_sample_size << ", tail ESS " << diagnostics.tail_effective_sample_size
            << "\n";
  if (superchains > 0)
    std::cout << "nested R-hat (" << superchains << " superchains, rank-normalised, split) " << nested_reduction
              << "\n";
  integrated_time_table(diagnostics.estimates).print(std::cout);
  // The calibration (docs/algorithms/calibration.md §6.7): a chain that never left one mode looks well mixed to every
  // estimator and to R̂ of its own halves; only chains started apart show it.
  if (diagnostics.chains < multi_chain_advice)
    std::cout << "note: " << diagnostics.chains << (diagnostics.chains == 1 ? " chain" : " chains")
              << ": a mode no chain left is invisible to every estimate; run " << multi_chain_advice
              << " or more (--chains) to trust tau (docs/algorithms/calibration.md §6.7)\n";
}

void run_mixing(const MixingArguments& arguments) {
  require(arguments.model.empty() != arguments.trace.empty(), "mixing: give exactly one of --model and --trace");
  require(arguments.superchains >= 0, "mixing: --superchains must not be negative");
  if (!arguments.trace_out.empty()) require_writable_file_location(arguments.trace_out, "--trace-out");
  // Made and locked before sampling, so that a bad location or a directory in use fails at once and never after
  // other outputs were written.
  const std::filesystem::path out = arguments.out;
  std::optional<OutputDirectoryLock> lock;
  if (!out.empty()) lock.emplace(out);
  const MixingTraces input = arguments.trace.empty() ? sample_model_traces(arguments) : traces_from_file(arguments);
  // chains × steps, the layout --trace reads.
  if (!arguments.trace_out.empty())
    write_npy(arguments.trace_out, matrix_to_npy(MatrixD(input.traces.transpose())));

  // Checked before the estimators run: a file's chains must divide into the superchains too.
  const double nested_reduction = nested_rhat(input.traces, arguments.superchains);
  analysis::MixingDiagnostics diagnostics = analysis::mixing_diagnostics(input.traces);
  // Chains in superchains are judged by nested R̂ (docs/algorithms/mixing-metrics.md §6.5.1), as the calibration judges
  // them.
  if (arguments.superchains > 0)
    analysis::use_nested_potential_scale_reduction(diagnostics, nested_reduction, analysis::TrustRule{});
  // Only the lags plotted: every lag of a long chain would cost memory in proportion to its length.
  const Eigen::Index lags = autocorrelation_lags_to_report(diagnostics.estimates, input.traces.rows());
  const std::optional<MatrixD> scaled = analysis::traces_in_unit_range(input.traces);
  const analysis::TraceAutocovariance covariance =
      analysis::trace_autocovariance(scaled ? *scaled : input.traces, lags);
  const bool constant = !(covariance.mean_autocovariance[0] > 0.0);
  const nlohmann::json record = mixing_record(arguments, input, diagnostics, nested_reduction);
  if (!arguments.out.empty())
    write_run_record(out, record,
                     constant ? std::vector<std::string>{} : write_autocorrelation(out, arguments, covariance, lags));
  if (arguments.json) {
    std::cout << record.dump(2) << '\n';
    return;
  }
  print_mixing_summary(input.source, diagnostics, arguments.superchains, nested_reduction);
  if (!arguments.out.empty())
    std::cout << "wrote " << arguments.out << "/run.json" << (constant ? "" : ", autocorrelation.csv/.svg") << '\n';
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<MixingArguments>();
  CLI::App* command = parent.add_subcommand(
      "mixing", "Integrated autocorrelation time of the energy under an operator, or of a series from a file");
  command->add_option("--model", arguments->model, "model file (.npz)");
  command->add_option("--trace", arguments->trace,
                      "estimate from this series instead of a model: .npy, 1-D (one chain) or 2-D chains × steps");
  command
      ->add_option("--operator", arguments->rule,
                   operator_help() + "or modified:RULE, the modified sweep of RULE (001 §3), for at most " +
                       std::to_string(experiments::max_modified_sweep_units) + " units")
      ->capture_default_str();
  command->add_option("--steps", arguments->steps, "recorded sweeps per chain")->capture_default_str();
  command->add_option("--chains", arguments->chains, "independent chains (default with --start-states: one per row)")
      ->capture_default_str()
      ->each([arguments](const std::string&) { arguments->chains_given = true; });
  command
      ->add_option("--superchains", arguments->superchains,
                   "K ≥ 2: the chains in K superchains of consecutive chains, those of a superchain started from one "
                   "shared state (with --trace: the file's chains grouped so), and their nested R-hat reported; "
                   "0: none")
      ->capture_default_str();
  command->add_option("--burn-in", arguments->burn_in, "unrecorded sweeps first")->capture_default_str();
  command->add_option("--start-states", arguments->start_states,
                      "start chain c from row c of this .npy (0/1, chains × visible units), its hidden units drawn "
                      "from p(h | v): from samples of the model's distribution (rbmix sample --particle-metropolis "
                      "after the proposals rbmix convergence bounds) the chains are stationary at once, and need "
                      "--burn-in 0");
  command->add_option("--seed", arguments->seed, "random seed")->capture_default_str();
  command->add_option("--trace-out", arguments->trace_out, "write the energy traces (chains × steps) as .npy");
  command->add_option("--out", arguments->out, "output directory for run.json and the autocorrelation");
  command->add_flag("--json", arguments->json, "print the results as JSON");
  command->add_flag("--float", arguments->single_precision, "run the chains in float");
  add_progress_options(*command, arguments->progress);
  command->callback([arguments] { run_mixing(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli::mixing_command

RBMIX_REGISTER_COMMAND("", rbmix::cli::mixing_command::attach)
