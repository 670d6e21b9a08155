#include "rbmix/ladder_option.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>

#include "rbmix/core/error.hpp"
#include "rbmix/data_option.hpp"
#include "rbmix/estimation/ais.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/report/table.hpp"
#include "rbmix/training/trajectory_file.hpp"

namespace rbmix::cli {

void add_ladder_options(CLI::App& command, LadderArguments& arguments) {
  arguments.ptt_option = command.add_option(
      "--ptt", arguments.trajectory,
      "tempering along a training trajectory: the rungs are the models of this trajectory file (rbmix train "
      "--trajectory K) and interpolations between them, from an exact rung without couplings to the last model");
  arguments.temperature_option = command.add_flag(
      "--temperature-ladder", arguments.temperature,
      "a temperature ladder instead: rungs βθ of --model, β from 0 (uniform, exact; see --base-rate) to 1");
  arguments.ptt_option->excludes(arguments.temperature_option);
  command
      .add_option("--base-rate", arguments.base_rate_file,
                  "with --temperature-ladder: β = 0 is the independent model whose visible biases are the base rate "
                  "of this file's rows (logit of the clipped means), as AIS starts, instead of the uniform "
                  "distribution")
      ->needs(arguments.temperature_option);
  command
      .add_option("--target-acceptance", arguments.target_acceptance,
                  "the exchange acceptance each link of the ladder is placed for, in (0, 1)")
      ->capture_default_str();
  command
      .add_option("--ladder-candidates", arguments.candidates,
                  "candidate rung positions along the path, evenly per segment, that the placement chooses from")
      ->capture_default_str();
  command.add_option("--placement-chains", arguments.placement_chains, "chains that anneal along the candidates")
      ->capture_default_str();
  command.add_option("--placement-sweeps", arguments.placement_sweeps, "their sweeps at each candidate")
      ->capture_default_str();
  command
      .add_option("--swap-interval", arguments.swap_interval,
                  "sweeps of every rung before each exchange phase; a ladder step is two such phases (even links, "
                  "then odd)")
      ->capture_default_str();
}

void add_particle_metropolis_options(CLI::App& command, bool& chosen, PathMetropolisOptions& options,
                                     const std::string& what) {
  command.add_flag("--particle-metropolis", chosen,
                   "with --ptt or --temperature-ladder: particle independent Metropolis-Hastings chains, whose "
                   "proposals are sequential Monte Carlo runs along the path, instead of ladders; " + what);
  command.add_option("--particles", options.particles, "particles of each proposal's run")->capture_default_str();
  command
      .add_option("--smc-steps", options.steps,
                  "positions along the path, evenly per segment, that each proposal's particles move through")
      ->capture_default_str();
  command.add_option("--sweeps-per-step", options.sweeps_per_step, "their sweeps at each position")
      ->capture_default_str();
  command
      .add_option("--resampling-threshold", options.resampling_threshold,
                  "resample a proposal's particles when their effective sample size falls below this share")
      ->capture_default_str();
}

nlohmann::json mass_check_record(const analysis::ProposalMassCheck& check) {
  return {{"proposals_log_partition", check.proposals_log_partition},
          {"reference_log_partition", check.reference_log_partition},
          {"reference", check.reference},
          {"gap", check.gap()},
          {"allowed_gap", check.allowed_gap},
          {"passed", check.passed()}};
}

ModelPath ladder_path(const LadderArguments& arguments, const std::string& model_file, std::string& source) {
  if (!arguments.trajectory.empty()) {
    require(model_file.empty(), "--model and --ptt both name the model: the ladder's top rung is the trajectory's "
                                "last model; give one");
    source = arguments.trajectory;
    return trajectory_path(read_trajectory(arguments.trajectory), arguments.trajectory);
  }
  require(!model_file.empty(), "--temperature-ladder needs --model, the model at β = 1");
  source = model_file;
  const Rbm model = load_rbm(model_file).rbm;
  if (arguments.base_rate_file.empty()) return temperature_path(model);
  const MatrixD rows = load_rows(arguments.base_rate_file, false, "--base-rate takes binary rows");
  require(rows.cols() == model.n_visible(), [&] {
    return "--base-rate " + arguments.base_rate_file + ": rows of " + std::to_string(rows.cols()) +
           " units, but the model has " + std::to_string(model.n_visible()) + " visible units";
  });
  return temperature_path(model, base_rate_visible_bias(rows));
}

std::string path_start(const LadderArguments& arguments) {
  if (!arguments.trajectory.empty()) return "the trajectory's independent model";
  return arguments.base_rate_file.empty() ? "uniform" : "base rate of " + arguments.base_rate_file;
}

BuiltLadder build_ladder(const LadderArguments& arguments, const std::string& model_file, const UnitRule& rule,
                         std::uint64_t seed, bool single_precision, bool announce) {
  BuiltLadder ladder;
  const ModelPath path = ladder_path(arguments, model_file, ladder.source);
  LadderPlacementOptions placement;
  placement.target_acceptance = arguments.target_acceptance;
  placement.candidates = arguments.candidates;
  placement.chains = arguments.placement_chains;
  placement.sweeps_per_candidate = arguments.placement_sweeps;
  placement.rule = rule;
  placement.seed = seed;
  placement.single_precision = single_precision;
  ladder.placed = place_rungs(path, placement);
  ladder.rungs = ladder_rungs(path, ladder.placed.positions);
  for (const double position : ladder.placed.positions) ladder.descriptions.push_back(path.describe(position));
  ladder.n_visible = path.n_visible();
  if (announce)
    std::cerr << "ladder: " << ladder.rungs.size() << " rungs along " << path.segments() + 1 << " models of "
            << ladder.source << ", placed for exchange acceptance " << arguments.target_acceptance << '\n';
  return ladder;
}

namespace {

std::vector<double> values(const VectorD& vector) { return {vector.begin(), vector.end()}; }

// The median of the finite entries; NaN when there are none.
double finite_median(const VectorD& vector) {
  std::vector<double> finite;
  for (const double value : vector)
    if (std::isfinite(value)) finite.push_back(value);
  if (finite.empty()) return std::nan("");
  std::sort(finite.begin(), finite.end());
  const std::size_t middle = finite.size() / 2;
  return finite.size() % 2 == 1 ? finite[middle] : 0.5 * (finite[middle - 1] + finite[middle]);
}

}  // namespace

nlohmann::json ladder_record(const LadderArguments& arguments, const BuiltLadder& ladder,
                             const LadderStatistics& statistics) {
  const VectorD measured = statistics.acceptance();
  nlohmann::json measured_json = nlohmann::json::array();
  for (const double value : measured) measured_json.push_back(std::isfinite(value) ? nlohmann::json(value) : nullptr);
  return {{"kind", arguments.trajectory.empty() ? "temperature" : "trajectory"},
          {"source", ladder.source},
          {"path_start", path_start(arguments)},
          {"target_acceptance", arguments.target_acceptance},
          {"candidates", arguments.candidates},
          {"placement_chains", arguments.placement_chains},
          {"placement_sweeps", arguments.placement_sweeps},
          {"swap_interval", arguments.swap_interval},
          {"rungs", ladder.rungs.size()},
          {"positions", ladder.placed.positions},
          {"rung_models", ladder.descriptions},
          {"estimated_acceptance", values(ladder.placed.estimated_acceptance)},
          {"measured_acceptance", measured_json},
          {"exchanges_attempted", statistics.attempted},
          {"exchanges_accepted", statistics.accepted},
          {"round_trips", statistics.round_trips},
          {"ladder_steps", statistics.steps},
          {"closed_links", statistics.closed_links()}};
}

void write_ladder_csv(const std::filesystem::path& file, const BuiltLadder& ladder,
                      const LadderStatistics& statistics) {
  Table table({"rung", "position", "model", "estimated_acceptance_above", "measured_acceptance_above"});
  const VectorD measured = statistics.acceptance();
  for (std::size_t rung = 0; rung < ladder.rungs.size(); ++rung) {
    const bool has_link = rung + 1 < ladder.rungs.size();
    const auto link = static_cast<Eigen::Index>(rung);
    table.add_row({static_cast<long long>(rung), ladder.placed.positions[rung], ladder.descriptions[rung],
                   has_link ? Table::Cell(ladder.placed.estimated_acceptance[link]) : Table::missing(),
                   has_link ? Table::Cell(measured[link]) : Table::missing()});
  }
  table.write_csv(file);
}

void print_ladder_summary(std::ostream& out, const BuiltLadder& ladder, const LadderStatistics& statistics) {
  const VectorD measured = statistics.acceptance();
  out << "ladder: " << ladder.rungs.size() << " rungs, from " << ladder.descriptions.front() << " to "
      << ladder.descriptions.back() << "; exchange acceptance per link: min " << measured.minCoeff() << ", median "
      << finite_median(measured) << ", max " << measured.maxCoeff() << " (placed for "
      << ladder.placed.estimated_acceptance.minCoeff() << " or more where the candidates allowed); round trips "
      << statistics.round_trips << " in " << statistics.steps << " ladder steps\n";
  const auto closed = statistics.closed_links();
  if (!closed.empty()) {
    out << "closed links (no exchange accepted): the ladder is split at";
    for (const Eigen::Index link : closed)
      out << " " << link << "–" << link + 1 << " (" << ladder.descriptions[static_cast<std::size_t>(link)] << " | "
          << ladder.descriptions[static_cast<std::size_t>(link + 1)] << ")";
    out << "; samples above a closed link never come from rung 0\n";
  }
}

}  // namespace rbmix::cli
