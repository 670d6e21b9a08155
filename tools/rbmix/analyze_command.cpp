// rbmix analyze: the exact analysis of transition operators on a model small enough to enumerate its joint states
// (docs/algorithms/operators.md §2): stationarity residual, row-sum error, detailed balance of the layers,
// irreducibility, period, SLEM (dense up to 2^10 joint states, matrix-free beyond, up to 2^26; Gibbs beyond 2^10
// through the dense chain on its smaller layer) and the exact autocorrelation time of the energy.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "rbmix/analysis/operator_analysis.hpp"
#include "rbmix/analysis/unit_transition_table.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/model/tempering.hpp"
#include "rbmix/progress_option.hpp"

namespace rbmix::cli::analyze_command {
namespace {

struct AnalyzeArguments {
  std::string model;
  std::string operators = "gibbs,flip";
  double beta = 1.0;
  bool json = false;
  ProgressFlags progress;
};

std::vector<analysis::OperatorSpecification> parse_operators(const std::string& list) {
  std::vector<analysis::OperatorSpecification> out;
  std::stringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ',')) out.push_back(analysis::parse_operator_specification(item));
  require(!out.empty(), "--operators: give at least one operator (a unit rule, or modified:RULE)");
  return out;
}

nlohmann::json to_json(const analysis::OperatorAnalysis& result, double seconds) {
  nlohmann::json out{{"operator", result.name},
                     {"states", result.states},
                     {"representation", result.representation},
                     {"stationarity_residual_l1", result.stationarity_residual},
                     {"row_sum_error", result.row_sum_error},
                     {"communicating_classes", result.ergodicity.communicating_classes},
                     {"irreducible", result.ergodicity.irreducible},
                     {"period", result.ergodicity.period},
                     {"slem", result.slem.slem},
                     {"slem_method", result.slem.method},
                     {"slem_converged", result.slem.converged},
                     {"seconds", seconds}};
  if (result.layer_detailed_balance_error) out["layer_detailed_balance_error"] = *result.layer_detailed_balance_error;
  if (result.lambda) out["lambda"] = *result.lambda;
  if (result.energy_autocorrelation_time) out["energy_autocorrelation_time"] = *result.energy_autocorrelation_time;
  if (result.energy_autocorrelation_time_unavailable)
    out["energy_autocorrelation_time_unavailable"] = *result.energy_autocorrelation_time_unavailable;
  return out;
}

struct TimedAnalysis {
  analysis::OperatorAnalysis result;
  double seconds = 0.0;
};

// A number as --json writes it (the shortest text that reads back exactly), so both outputs show the same digits.
std::string number(double value) { return nlohmann::json(value).dump(); }

void print_analysis(const TimedAnalysis& timed) {
  const analysis::OperatorAnalysis& result = timed.result;
  std::cout << result.name << ": " << result.states << " joint states (" << result.representation << ")\n"
            << "  ||pi K - pi||_1 = " << number(result.stationarity_residual)
            << ", max |row sum - 1| = " << number(result.row_sum_error);
  if (result.layer_detailed_balance_error)
    std::cout << ", detailed balance error (layers) = " << number(*result.layer_detailed_balance_error);
  if (result.lambda) std::cout << ", lambda = " << number(*result.lambda);
  std::cout << "\n  irreducible: " << (result.ergodicity.irreducible ? "yes" : "no") << " ("
            << result.ergodicity.communicating_classes << " classes), period " << result.ergodicity.period
            << "\n  SLEM = " << std::setprecision(12) << result.slem.slem << " (" << result.slem.method
            << (result.slem.converged ? "" : ", NOT converged") << ")";
  if (result.energy_autocorrelation_time)
    std::cout << ", exact energy autocorrelation time = " << *result.energy_autocorrelation_time;
  if (result.energy_autocorrelation_time_unavailable)
    std::cout << ", energy autocorrelation time unavailable (" << *result.energy_autocorrelation_time_unavailable
              << ")";
  std::cout << std::setprecision(6) << "\n  time: " << timed.seconds << " s\n";
}

void run_analyze(const AnalyzeArguments& arguments) {
  const LoadedRbm loaded = load_rbm(arguments.model);
  validate_inverse_temperature(arguments.beta);
  std::vector<TimedAnalysis> analyses;
  const std::vector<analysis::OperatorSpecification> specifications = parse_operators(arguments.operators);
  // One step per stage of each operator's analysis; the matrix-free stages also count their passes in the note.
  ProgressReporter progress("analyze", "stage",
                            static_cast<std::int64_t>(specifications.size()) * analysis::analysis_stages,
                            arguments.progress.mode());
  progress.show_elapsed_instead_of_eta();  // the SLEM stage takes most of the time: a stage rate would mislead
  for (std::size_t index = 0; index < specifications.size(); ++index) {
    const analysis::OperatorSpecification& specification = specifications[index];
    const std::string name = analysis::to_string(specification);
    const auto first_stage = static_cast<std::int64_t>(index) * analysis::analysis_stages;
    const analysis::AnalysisProgress on_stage = [&](int stages_done, const std::string& note) {
      progress.update(first_stage + stages_done, name + ": " + note);
    };
    const auto start = std::chrono::steady_clock::now();
    const analysis::OperatorAnalysis result = [&] {
      // The analysis knows the model only as numbers (e.g. energies too large for a double): name the file.
      try {
        return analysis::analyse_operator(loaded.rbm, specification, arguments.beta, on_stage);
      } catch (const InputError& error) {
        throw InputError(arguments.model + ": " + error.what());
      }
    }();
    analyses.push_back({result, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
  }
  progress.update(static_cast<std::int64_t>(specifications.size()) * analysis::analysis_stages, "done");
  progress.finish();
  if (arguments.json) {
    nlohmann::json report{{"model", arguments.model}, {"beta", arguments.beta}, {"operators", nlohmann::json::array()}};
    for (const auto& timed : analyses) report["operators"].push_back(to_json(timed.result, timed.seconds));
    std::cout << report.dump(2) << '\n';
    return;
  }
  std::cout << "model " << arguments.model << " (" << loaded.rbm.n_visible() << " visible, " << loaded.rbm.n_hidden()
            << " hidden), beta = " << arguments.beta << '\n';
  for (const auto& timed : analyses) print_analysis(timed);
}

void attach_analyze(CLI::App& app) {
  auto arguments = std::make_shared<AnalyzeArguments>();
  CLI::App* command = app.add_subcommand("analyze", "Exact analysis of transition operators on a tiny model");
  command->add_option("--model", arguments->model, "model file (.npz)")->required();
  command
      ->add_option("--operators", arguments->operators,
                   "comma-separated operators: a unit rule, one of\n" + unit_rule_help() +
                       "or modified:RULE, the whole sweep of RULE modified by its minimum diagonal (001 §3)")
      ->capture_default_str();
  command->add_option("--beta", arguments->beta, "inverse temperature")->capture_default_str();
  command->add_flag("--json", arguments->json, "print JSON");
  add_progress_options(*command, arguments->progress);
  command->callback([arguments] { run_analyze(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli::analyze_command

RBMIX_REGISTER_COMMAND("", rbmix::cli::analyze_command::attach_analyze)
