// rbmix convergence: an upper bound on the total-variation distance of a chain from the RBM's distribution after t
// sweeps, from L-lag couplings (docs/algorithms/convergence-bounds.md §6.8), with its Monte Carlo standard error and
// the Hamming-Wasserstein bound, at any model size. On a tiny model the exact distance d_TV(π₀Pᵗ, π) and the SLEM's
// envelope λᵗ are set beside the bound. Pairs that do not meet within --max-sweeps are reported, and then no bound
// is claimed. Any unit rule at any size; modified:RULE (the whole-sweep modified matrix) on models of at most 10
// units. With --out DIR: run.json, bound.csv and bound.svg.
// With --ptt TRAJECTORY (or --temperature-ladder) it couples pairs of tempering ladders instead
// (docs/algorithms/tempering-along-trajectory.md §10.4): the chain is the whole ladder, t counts ladder steps, and the
// bound on the ladder bounds the top rung's distance from the last model's distribution; it reports how many pairs of
// ladders met, on how many rungs the others still differ, the acceptance per link and the round trips, and claims no
// bound when a pair did not meet or a link never exchanged.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "rbmix/analysis/convergence_bound.hpp"
#include "rbmix/analysis/exact_total_variation.hpp"
#include "rbmix/analysis/operator_analysis.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/ladder_option.hpp"
#include "rbmix/model/tempering.hpp"
#include "rbmix/operator_option.hpp"
#include "rbmix/progress_option.hpp"
#include "rbmix/report/run_record.hpp"
#include "rbmix/report/svg_plot.hpp"
#include "rbmix/report/table.hpp"

namespace rbmix::cli::convergence_command {
namespace {

// The ε of the mixing times printed: the conventional t_mix = t_mix(1/4).
constexpr double mixing_epsilon = 0.25;
// Rows of the table printed on the terminal (bound.csv has every t).
constexpr Eigen::Index printed_rows = 12;

struct ConvergenceArguments {
  std::string model;
  std::string rule = "gibbs";
  std::string start = "uniform";
  double beta = 1.0;
  Eigen::Index lag = 1;
  Eigen::Index pairs = 100;
  Eigen::Index max_sweeps = 10000;
  Eigen::Index maximal_within = analysis::default_maximal_coupling_distance;
  std::uint64_t seed = 1;
  std::string out;
  bool json = false;
  bool single_precision = false;
  ProgressFlags progress;
  // --particle-metropolis: particle independent Metropolis–Hastings along the ladder's path instead of a ladder.
  bool particle_metropolis = false;
  PathMetropolisOptions proposals;
  double allowed_mass_gap = analysis::PathMetropolisBoundOptions{}.allowed_mass_gap;
};

// The truth beside the bound on a tiny model: d_TV(π₀Pᵗ, π) over the bound's sweeps, and the SLEM where the dense
// matrix is small enough.
struct ExactReference {
  VectorD total_variation;
  std::optional<double> slem;
};

std::optional<ExactReference> exact_reference(const Rbm& rbm, const analysis::ConvergenceBound& bound,
                                              const analysis::OperatorSpecification& specification, double beta,
                                              const analysis::StartDistribution& start) {
  if (rbm.n_visible() + rbm.n_hidden() > analysis::max_exact_distance_units || !bound.bound_available())
    return std::nullopt;
  ExactReference reference;
  reference.total_variation = analysis::exact_total_variation(rbm, specification.rule, beta, start,
                                                              bound.total_variation.size() - 1, specification.modified);
  if (rbm.n_visible() + rbm.n_hidden() <= analysis::max_dense_analysis_units) {
    const MatrixD sweep = analysis::sweep_transition_matrix(rbm, specification.rule, beta);
    reference.slem = analysis::dense_slem(
                         specification.modified ? analysis::modified_matrix(sweep, sweep.diagonal().minCoeff()) : sweep)
                         .slem;
  }
  return reference;
}

nlohmann::json optional_number(const std::optional<Eigen::Index>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

Table bound_table(const analysis::ConvergenceBound& bound, const std::optional<ExactReference>& exact) {
  std::vector<std::string> columns{"t", "tv_bound", "tv_standard_error", "wasserstein_bound",
                                   "wasserstein_standard_error"};
  if (exact) columns.push_back("exact_tv");
  Table table(columns);
  for (Eigen::Index t = 0; t < bound.total_variation.size(); ++t) {
    std::vector<Table::Cell> row{static_cast<long long>(t), bound.total_variation[t],
                                 bound.total_variation_standard_error[t], bound.wasserstein[t],
                                 bound.wasserstein_standard_error[t]};
    if (exact) row.emplace_back(exact->total_variation[t]);
    table.add_row(std::move(row));
  }
  return table;
}

// About printed_rows rows of the table, evenly spaced over t, the last row included.
Table thinned(const Table& table) {
  Table out(table.columns());
  const auto rows = static_cast<Eigen::Index>(table.rows());
  const Eigen::Index step = std::max<Eigen::Index>(1, (rows + printed_rows - 1) / printed_rows);
  for (Eigen::Index row = 0; row < rows; ++row)
    if (row % step == 0 || row == rows - 1) {
      std::vector<Table::Cell> cells;
      for (std::size_t column = 0; column < table.columns().size(); ++column)
        cells.push_back(table.at(static_cast<std::size_t>(row), column));
      out.add_row(std::move(cells));
    }
  return out;
}

void write_bound_plot(const std::filesystem::path& file, const analysis::ConvergenceBound& bound,
                      const std::optional<ExactReference>& exact, const std::string& operator_name,
                      const std::string& time_label = "sweeps t") {
  PlotSeries estimate{
      "bound (" + operator_name + ", L = " + std::to_string(bound.lag) + ") ± 2 s.e.", {}, {}, {}, {}, false};
  PlotSeries truth{"exact d_TV", {}, {}, {}, {}, true};
  PlotSeries envelope{"SLEM envelope λᵗ", {}, {}, {}, {}, true};
  for (Eigen::Index t = 0; t < bound.total_variation.size(); ++t) {
    const double x = static_cast<double>(t);
    const double error = 2.0 * bound.total_variation_standard_error[t];
    estimate.x.push_back(x);
    estimate.y.push_back(bound.total_variation[t]);
    estimate.lower.push_back(std::max(0.0, bound.total_variation[t] - error));
    estimate.upper.push_back(bound.total_variation[t] + error);
    if (exact) {
      truth.x.push_back(x);
      truth.y.push_back(exact->total_variation[t]);
      if (exact->slem) {
        envelope.x.push_back(x);
        envelope.y.push_back(std::pow(*exact->slem, x));
      }
    }
  }
  std::vector<PlotSeries> series{estimate};
  if (exact) series.push_back(truth);
  if (exact && exact->slem) series.push_back(envelope);
  PlotOptions options{"Distance from the RBM's distribution after t " + time_label.substr(0, time_label.size() - 2),
                      time_label,
                      "total variation",
                      false,
                      0.0,
                      std::nullopt,
                      {{"ε = 1/4", mixing_epsilon}}};
  write_svg_plot(file, series, options);
}

nlohmann::json convergence_record(const ConvergenceArguments& arguments, const std::string& operator_name,
                                  const analysis::ConvergenceBound& bound, const std::optional<ExactReference>& exact) {
  const nlohmann::json configuration{{"model", arguments.model},
                                     {"operator", operator_name},
                                     {"beta", arguments.beta},
                                     {"lag", arguments.lag},
                                     {"pairs", arguments.pairs},
                                     {"start", arguments.start},
                                     {"max_sweeps", arguments.max_sweeps},
                                     {"maximal_within", arguments.maximal_within},
                                     {"float", arguments.single_precision}};
  nlohmann::json record = make_run_record("convergence", configuration, arguments.seed);
  nlohmann::json meeting_times = nlohmann::json::array();
  for (const auto& time : bound.meeting_times) meeting_times.push_back(optional_number(time));
  record["meeting_times"] = meeting_times;
  record["pairs_met"] = bound.met;
  record["share_met"] = bound.share_met();
  record["bound_available"] = bound.bound_available();
  record["ergodicity"] = to_string(bound.ergodicity);
  record["mixing_time_bound"] = optional_number(bound.mixing_time(mixing_epsilon));
  record["mixing_epsilon"] = mixing_epsilon;
  if (bound.bound_available()) {
    const auto values = [](const VectorD& curve) { return std::vector<double>(curve.begin(), curve.end()); };
    record["tv_bound"] = values(bound.total_variation);
    record["tv_standard_error"] = values(bound.total_variation_standard_error);
    record["wasserstein_bound"] = values(bound.wasserstein);
    record["wasserstein_standard_error"] = values(bound.wasserstein_standard_error);
  }
  if (exact) {
    record["exact_tv"] = std::vector<double>(exact->total_variation.begin(), exact->total_variation.end());
    record["exact_mixing_time"] = optional_number(analysis::first_time_within(exact->total_variation, mixing_epsilon));
    record["slem"] = exact->slem ? nlohmann::json(*exact->slem) : nlohmann::json(nullptr);
  }
  return record;
}

// "latest meeting N UNIT; t_mix(1/4) <= M UNIT": the line's start, once every pair has met.
void print_latest_meeting_and_mixing(const analysis::ConvergenceBound& bound, const std::string& unit) {
  Eigen::Index latest = 0;
  for (const auto& time : bound.meeting_times) latest = std::max(latest, *time);
  std::cout << "latest meeting " << latest << ' ' << unit << "; t_mix(" << mixing_epsilon
            << ") <= " << *bound.mixing_time(mixing_epsilon) << ' ' << unit;
}

void print_summary(const ConvergenceArguments& arguments, const std::string& operator_name,
                   const analysis::ConvergenceBound& bound, const std::optional<ExactReference>& exact) {
  std::cout << "operator " << operator_name << ", lag L = " << bound.lag << ", start " << arguments.start << ", "
            << bound.met << " of " << bound.meeting_times.size() << " pairs met within " << bound.max_sweeps
            << " sweeps\n";
  std::cout << "ergodicity: " << to_string(bound.ergodicity) << "\n";
  if (!bound.all_met()) {
    std::cout << "no bound: " << bound.meeting_times.size() - static_cast<std::size_t>(bound.met)
              << " pair(s) did not meet, so their meeting times, and the bound at every t, are unknown; run more "
                 "sweeps (--max-sweeps) or see docs/algorithms/convergence-bounds.md §6.8 for when pairs meet\n";
    return;
  }
  if (!bound.bound_available()) {
    std::cout << "no bound: the pairs met, but a chain that does not converge to pi can meet its lagged copy\n";
    return;
  }
  print_latest_meeting_and_mixing(bound, "sweeps");
  std::cout << " (from the bound)";
  if (exact) {
    const auto truth = analysis::first_time_within(exact->total_variation, mixing_epsilon);
    std::cout << ", exact " << (truth ? std::to_string(*truth) : "beyond the curve");
  }
  std::cout << "\n";
  thinned(bound_table(bound, exact)).print(std::cout);
}

// The L-lag run's options shared by single chains, ladders and particle Metropolis: the rule inside, lag, pairs,
// budget, seed, the maximal coupling's reach and the precision.
analysis::ConvergenceBoundOptions coupling_options(const ConvergenceArguments& arguments, const UnitRule& rule) {
  analysis::ConvergenceBoundOptions coupling;
  coupling.rule = rule;
  coupling.lag = arguments.lag;
  coupling.pairs = arguments.pairs;
  coupling.max_sweeps = arguments.max_sweeps;
  coupling.seed = arguments.seed;
  coupling.maximal_coupling_distance = arguments.maximal_within;
  coupling.single_precision = arguments.single_precision;
  return coupling;
}

void run_convergence(const ConvergenceArguments& arguments) {
  const std::filesystem::path out =
      arguments.out.empty() ? std::filesystem::path{} : prepare_output_directory(arguments.out);
  const LoadedRbm loaded = load_rbm(arguments.model);
  const analysis::OperatorSpecification specification = analysis::parse_operator_specification(arguments.rule);
  const analysis::StartDistribution start = analysis::parse_start_distribution(arguments.start);

  analysis::ConvergenceBoundOptions options = coupling_options(arguments, specification.rule);
  options.modified_sweep = specification.modified;
  options.inverse_temperature = arguments.beta;
  options.validate();
  ProgressReporter progress("convergence", "sweep", arguments.max_sweeps, arguments.progress.mode());
  options.progress = [&](Eigen::Index sweeps, Eigen::Index met) {
    progress.update(sweeps, std::to_string(met) + " of " + std::to_string(arguments.pairs) + " pairs met");
  };
  const analysis::ConvergenceBound bound = analysis::convergence_bound(loaded.rbm, start, options);
  progress.finish();
  const std::optional<ExactReference> exact = exact_reference(loaded.rbm, bound, specification, arguments.beta, start);

  const std::string operator_name = analysis::to_string(specification);
  const nlohmann::json record = convergence_record(arguments, operator_name, bound, exact);
  if (!arguments.out.empty()) {
    std::vector<std::string> files;
    if (bound.bound_available()) {
      bound_table(bound, exact).write_csv(out / "bound.csv");
      write_bound_plot(out / "bound.svg", bound, exact, operator_name);
      files = {"bound.csv", "bound.svg"};
    }
    write_run_record(out, record, files);
  }
  if (arguments.json) {
    std::cout << record.dump(2) << '\n';
    return;
  }
  print_summary(arguments, operator_name, bound, exact);
  if (!arguments.out.empty())
    std::cout << "wrote " << arguments.out << "/run.json" << (bound.bound_available() ? ", bound.csv, bound.svg" : "")
              << '\n';
}

void print_ladder_bound(const ConvergenceArguments& arguments, const analysis::LadderConvergenceBound& result,
                        const BuiltLadder& ladder) {
  const analysis::ConvergenceBound& bound = result.bound;
  print_ladder_summary(std::cout, ladder, result.statistics);
  std::cout << "coupled ladders: lag L = " << bound.lag << " ladder steps (" << result.sweeps_per_step
            << " sweeps each), start " << arguments.start << ", " << bound.met << " of " << bound.meeting_times.size()
            << " pairs of ladders met within " << bound.max_sweeps << " steps\n";
  if (!bound.all_met()) {
    std::vector<Eigen::Index> unmet;
    for (std::size_t pair = 0; pair < result.unmet_rungs.size(); ++pair)
      if (!bound.meeting_times[pair]) unmet.push_back(result.unmet_rungs[pair]);
    std::sort(unmet.begin(), unmet.end());
    std::cout << "no bound: " << unmet.size() << " pair(s) of ladders did not meet; they still differ on "
              << unmet.front() << " to " << unmet.back() << " of " << ladder.rungs.size()
              << " rungs. Run more steps (--max-sweeps), exchange less often (--swap-interval) or see "
                 "docs/algorithms/tempering-along-trajectory.md §10.5 for when ladders meet\n";
    return;
  }
  if (!result.closed_links.empty()) {
    std::cout << "no bound: a link never exchanged, so the ladder is split and its top never sees rung 0\n";
    return;
  }
  if (!bound.bound_available()) {
    std::cout << "no bound: the rungs' sweeps are not ergodic\n";
    return;
  }
  print_latest_meeting_and_mixing(bound, "ladder steps");
  std::cout << " = " << *bound.mixing_time(mixing_epsilon) * result.sweeps_per_step
            << " sweeps of every rung (from the bound)\n";
  thinned(bound_table(bound, std::nullopt)).print(std::cout);
}

void run_ladder_convergence(const ConvergenceArguments& arguments, const LadderArguments& ladder_arguments) {
  const std::filesystem::path out =
      arguments.out.empty() ? std::filesystem::path{} : prepare_output_directory(arguments.out);
  const analysis::OperatorSpecification specification = analysis::parse_operator_specification(arguments.rule);
  require(!specification.modified, "--operator modified:RULE is a whole-sweep matrix of tiny models; a ladder "
                                   "moves its rungs by a unit rule");
  require(arguments.beta == 1.0, "--beta does not apply to a ladder: its rungs are its temperatures");
  const analysis::StartDistribution start = analysis::parse_start_distribution(arguments.start);
  analysis::LadderBoundOptions options;
  options.coupling = coupling_options(arguments, specification.rule);
  options.swap_interval = ladder_arguments.swap_interval;
  options.coupling.validate();
  const BuiltLadder ladder =
      build_ladder(ladder_arguments, arguments.model, specification.rule, arguments.seed, arguments.single_precision,
                   !arguments.json);
  ProgressReporter progress("convergence", "ladder step", arguments.max_sweeps, arguments.progress.mode());
  options.coupling.progress = [&](Eigen::Index steps, Eigen::Index met) {
    progress.update(steps, std::to_string(met) + " of " + std::to_string(arguments.pairs) + " ladder pairs met");
  };
  const analysis::LadderConvergenceBound result = analysis::ladder_convergence_bound(ladder.rungs, start, options);
  progress.finish();

  const std::string operator_name = analysis::to_string(specification);
  nlohmann::json record = convergence_record(arguments, operator_name, result.bound, std::nullopt);
  record["bound_available"] = result.bound_available();
  record["time_unit"] = "ladder step of " + std::to_string(result.sweeps_per_step) + " sweeps of every rung";
  record["ladder"] = ladder_record(ladder_arguments, ladder, result.statistics);
  record["unmet_rungs"] = result.unmet_rungs;
  if (!arguments.out.empty()) {
    std::vector<std::string> files{"ladder.csv"};
    write_ladder_csv(out / "ladder.csv", ladder, result.statistics);
    if (result.bound_available()) {
      bound_table(result.bound, std::nullopt).write_csv(out / "bound.csv");
      write_bound_plot(out / "bound.svg", result.bound, std::nullopt, operator_name + " ladder", "ladder steps t");
      files.insert(files.end(), {"bound.csv", "bound.svg"});
    }
    write_run_record(out, record, files);
  }
  if (arguments.json) {
    std::cout << record.dump(2) << '\n';
    return;
  }
  print_ladder_bound(arguments, result, ladder);
  if (!arguments.out.empty())
    std::cout << "wrote " << arguments.out << "/run.json, ladder.csv"
              << (result.bound_available() ? ", bound.csv, bound.svg" : "") << '\n';
}

void print_path_metropolis_bound(const analysis::PathMetropolisBound& result, const std::string& source) {
  const analysis::ConvergenceBound& bound = result.bound;
  const VectorD log_partitions =
      Eigen::Map<const VectorD>(result.proposal_log_partitions.data(),
                                static_cast<Eigen::Index>(result.proposal_log_partitions.size()));
  const double mean = log_partitions.mean();
  const double spread = std::sqrt((log_partitions.array() - mean).square().sum() /
                                  std::max<double>(1.0, static_cast<double>(log_partitions.size()) - 1.0));
  const std::int64_t after_start = result.proposals - static_cast<std::int64_t>(bound.meeting_times.size());
  std::cout << "particle Metropolis along " << source << ": " << result.proposal_log_partitions.size()
            << " proposals; log Z-hat of the proposals " << mean << " +- " << spread << " (standard deviation); the "
            << "first chains accepted " << result.accepted << " of " << after_start << '\n';
  std::cout << "coupled chains: lag L = " << bound.lag << " proposals, " << bound.met << " of "
            << bound.meeting_times.size() << " pairs met within " << bound.max_sweeps << " proposals\n";
  if (!bound.all_met()) {
    std::cout << "no bound: " << bound.meeting_times.size() - static_cast<std::size_t>(bound.met)
              << " pair(s) did not meet; a chain at a high Z-hat waits for a higher one. Run more proposals "
                 "(--max-sweeps), or make Z-hat less variable (--particles, --smc-steps, --sweeps-per-step); see "
                 "docs/algorithms/tempering-along-trajectory.md §10.7\n";
    return;
  }
  if (result.mass_check.performed())
    std::cout << "mass check: the proposals' mean Z-hat gives log Z = " << result.mass_check.proposals_log_partition
              << ", " << result.mass_check.reference << " " << result.mass_check.reference_log_partition << " (gap "
              << result.mass_check.gap() << " nats, allowed " << result.mass_check.allowed_gap << ")\n";
  if (!bound.withheld.empty()) {
    std::cout << "no bound: " << bound.withheld << "; see docs/algorithms/tempering-along-trajectory.md §10.7\n";
    return;
  }
  if (!bound.bound_available()) {
    std::cout << "no bound: the moves' rule is not ergodic\n";
    return;
  }
  print_latest_meeting_and_mixing(bound, "proposals");
  std::cout << " (from the bound)\n";
  thinned(bound_table(bound, std::nullopt)).print(std::cout);
}

void run_path_metropolis_convergence(const ConvergenceArguments& arguments, const LadderArguments& ladder_arguments) {
  const std::filesystem::path out =
      arguments.out.empty() ? std::filesystem::path{} : prepare_output_directory(arguments.out);
  const analysis::OperatorSpecification specification = analysis::parse_operator_specification(arguments.rule);
  require(!specification.modified, "--operator modified:RULE is a whole-sweep matrix of tiny models; particle "
                                   "Metropolis moves its particles by a unit rule");
  require(arguments.beta == 1.0, "--beta does not apply to particle Metropolis: its path holds its temperatures");
  require(arguments.start == "uniform",
          "--start does not apply to particle Metropolis: each chain starts at a proposal, a draw of its own");
  analysis::PathMetropolisBoundOptions options;
  options.coupling = coupling_options(arguments, specification.rule);
  options.proposals = arguments.proposals;
  require(!std::isnan(arguments.allowed_mass_gap) && arguments.allowed_mass_gap >= 0.0,
          "--mass-gap must be at least 0 nats (inf turns the check off)");
  options.allowed_mass_gap = arguments.allowed_mass_gap;
  options.coupling.validate();
  std::string source;
  const ModelPath path = ladder_path(ladder_arguments, arguments.model, source);
  options.proposals.validate(path);
  ProgressReporter progress("convergence", "proposal", arguments.max_sweeps, arguments.progress.mode());
  // The line counts the chains' steps t and, after them, the proposals drawn: the pairs' starts and lag draw
  // (2 + L) × pairs of them before the first coupled step.
  Eigen::Index steps = 0;
  Eigen::Index met = 0;
  std::int64_t drawn = 0;
  const auto show = [&] {
    progress.update(steps, std::to_string(met) + " of " + std::to_string(arguments.pairs) + " pairs met, " +
                               std::to_string(drawn) + " proposals drawn" +
                               (steps == 0 ? " (the pairs' starts and lag first)" : ""));
  };
  options.coupling.progress = [&](Eigen::Index steps_done, Eigen::Index pairs_met) {
    steps = steps_done;
    met = pairs_met;
    show();
  };
  options.on_proposal = [&](std::int64_t proposals_drawn) {
    drawn = proposals_drawn;
    show();
  };
  const analysis::PathMetropolisBound result = analysis::path_metropolis_bound(path, options);
  progress.finish();

  const std::string operator_name = analysis::to_string(specification);
  nlohmann::json record = convergence_record(arguments, operator_name, result.bound, std::nullopt);
  record["time_unit"] = "proposal (one sequential Monte Carlo run along the path)";
  record["particle_metropolis"] = {{"path", source},
                                   {"path_start", path_start(ladder_arguments)},
                                   {"path_models", path.segments() + 1},
                                   {"particles", arguments.proposals.particles},
                                   {"smc_steps", static_cast<Eigen::Index>(path.evenly_spaced_positions(
                                                     arguments.proposals.steps).size()) - 1},
                                   {"sweeps_per_step", arguments.proposals.sweeps_per_step},
                                   {"resampling_threshold", arguments.proposals.resampling_threshold},
                                   {"proposals_of_first_chains", result.proposals},
                                   {"accepted_by_first_chains", result.accepted},
                                   {"proposal_log_partitions", result.proposal_log_partitions}};
  if (result.mass_check.performed())
    record["mass_check"] = mass_check_record(result.mass_check);
  if (!result.bound.withheld.empty()) record["bound_withheld"] = result.bound.withheld;
  if (!arguments.out.empty()) {
    std::vector<std::string> files;
    if (result.bound.bound_available()) {
      bound_table(result.bound, std::nullopt).write_csv(out / "bound.csv");
      write_bound_plot(out / "bound.svg", result.bound, std::nullopt, operator_name + " particle Metropolis",
                       "proposals t");
      files = {"bound.csv", "bound.svg"};
    }
    write_run_record(out, record, files);
  }
  if (arguments.json) {
    std::cout << record.dump(2) << '\n';
    return;
  }
  print_path_metropolis_bound(result, source);
  if (!arguments.out.empty())
    std::cout << "wrote " << arguments.out << "/run.json"
              << (result.bound.bound_available() ? ", bound.csv, bound.svg" : "") << '\n';
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<ConvergenceArguments>();
  auto ladder = std::make_shared<LadderArguments>();
  CLI::App* command = parent.add_subcommand(
      "convergence",
      "Upper bound on the total-variation distance to the RBM's distribution after t sweeps, from L-lag couplings "
      "(beside the exact distance on tiny models)");
  command->add_option("--model", arguments->model, "model file (.npz)");
  command
      ->add_option("--operator", arguments->rule,
                   operator_help() +
                       "or modified:RULE, the whole-sweep modified matrix of RULE (001 §3), for at most " +
                       std::to_string(analysis::max_modified_sweep_coupling_units) + " units")
      ->capture_default_str();
  command->add_option("--lag", arguments->lag, "the lag L (a larger L gives a tighter bound)")->capture_default_str();
  command->add_option("--pairs", arguments->pairs, "coupled pairs R")->capture_default_str();
  command
      ->add_option("--start", arguments->start,
                   "start distribution: zeros, ones, uniform (every unit a fair coin) or data:FILE (visible rows "
                   "of FILE, hidden drawn from p(h | v))")
      ->capture_default_str();
  command->add_option("--max-sweeps", arguments->max_sweeps,
                      "sweeps (ladder steps with a ladder) before unmet pairs are given up")
      ->capture_default_str();
  command
      ->add_option("--maximal-within", arguments->maximal_within,
                   "pairs within this many differing units use the maximal coupling of each layer, further ones "
                   "shared uniforms; -1: shared uniforms only")
      ->capture_default_str();
  command->add_option("--beta", arguments->beta, "inverse temperature β of the chains")->capture_default_str();
  command->add_option("--seed", arguments->seed, "random seed")->capture_default_str();
  command->add_option("--out", arguments->out, "output directory for run.json, bound.csv and bound.svg");
  command->add_flag("--json", arguments->json, "print the results as JSON");
  command->add_flag("--float", arguments->single_precision, "run the chains in float");
  add_progress_options(*command, arguments->progress);
  add_ladder_options(*command, *ladder);
  add_particle_metropolis_options(*command, arguments->particle_metropolis, arguments->proposals,
                                  "a sweep is one proposal");
  command
      ->add_option("--mass-gap", arguments->allowed_mass_gap,
                   "with --particle-metropolis: withhold the bound when the proposals' mean Z-hat falls more than "
                   "this many nats below the last model's log Z (exact while small, else AIS): the proposals then "
                   "missed the states that carry the model's mass (docs/algorithms/tempering-along-trajectory.md "
                   "§10.7); inf turns the check off")
      ->capture_default_str();
  command->callback([arguments, ladder] {
    if (arguments->particle_metropolis) {
      require(ladder->given(), "--particle-metropolis needs a path: --ptt TRAJECTORY or --temperature-ladder");
      return run_path_metropolis_convergence(*arguments, *ladder);
    }
    if (ladder->given()) return run_ladder_convergence(*arguments, *ladder);
    require(!arguments->model.empty(), "--model is required (or --ptt TRAJECTORY)");
    run_convergence(*arguments);
  });
}

}  // namespace
}  // namespace rbmix::cli::convergence_command

RBMIX_REGISTER_COMMAND("", rbmix::cli::convergence_command::attach)
