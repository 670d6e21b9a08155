// rbmix.place_ladder, rbmix.sample_ptt and rbmix.ladder_convergence_bound: parallel tempering along a training
// trajectory (or a temperature ladder) and the bound of coupled ladders, as `rbmix sample --ptt` and `rbmix
// convergence --ptt`; rbmix.sample_path_metropolis and rbmix.path_metropolis_bound: particle Metropolis along the
// same path, as `--particle-metropolis` (docs/algorithms/tempering-along-trajectory.md).
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>
#include <optional>

#include "arrays.hpp"
#include "bindings.hpp"
#include "rbmix/analysis/convergence_bound.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/estimation/ais.hpp"
#include "rbmix/sampling/tempering_ladder.hpp"
#include "rbmix/training/particle_independent_metropolis.hpp"
#include "rbmix/training/trajectory_file.hpp"

namespace rbmix::python {
namespace {

using namespace pybind11::literals;

struct PlacedPythonLadder {
  std::vector<Rbm> rungs;
  PlacedLadder placed;
  std::vector<std::string> descriptions;
};

// The path of a trajectory (a Trajectory, or the path of its file) or, given `temperature_model`, of βθ: from the
// uniform distribution, or from the base-rate model of `base_rows` as AIS starts (as --base-rate).
ModelPath path_of(const py::object& trajectory, const std::optional<Rbm>& temperature_model,
                  const py::object& base_rows) {
  require(trajectory.is_none() != !temperature_model.has_value(),
          "give trajectory (a Trajectory or its file) or temperature_model (an Rbm), not both");
  require(base_rows.is_none() || temperature_model.has_value(), "base_rows: only with temperature_model");
  if (temperature_model) {
    if (base_rows.is_none()) return temperature_path(*temperature_model);
    const MatrixD rows = binary_matrix(base_rows, "base_rows", temperature_model->n_visible());
    return temperature_path(*temperature_model, base_rate_visible_bias(rows));
  }
  if (py::isinstance<Trajectory>(trajectory))
    return trajectory_path(trajectory.cast<const Trajectory&>(), "trajectory");
  const auto file = trajectory.cast<std::filesystem::path>();
  return trajectory_path(read_trajectory(file), file.string());
}

PlacedPythonLadder place(const py::object& trajectory, const std::optional<Rbm>& temperature_model,
                         const py::object& base_rows, const std::string& operator_name, double target_acceptance,
                         Eigen::Index candidates, Eigen::Index placement_chains, Eigen::Index placement_sweeps,
                         std::uint64_t seed) {
  const ModelPath path = path_of(trajectory, temperature_model, base_rows);
  LadderPlacementOptions options;
  options.target_acceptance = target_acceptance;
  options.candidates = candidates;
  options.chains = placement_chains;
  options.sweeps_per_candidate = placement_sweeps;
  options.rule = parse_unit_rule(operator_name);
  options.seed = seed;
  PlacedPythonLadder ladder;
  {
    py::gil_scoped_release release;
    ladder.placed = place_rungs(path, options);
  }
  ladder.rungs = ladder_rungs(path, ladder.placed.positions);
  for (const double position : ladder.placed.positions) ladder.descriptions.push_back(path.describe(position));
  return ladder;
}

py::dict statistics_dict(const LadderStatistics& statistics) {
  return py::dict("acceptance"_a = to_numpy(statistics.acceptance()), "attempted"_a = statistics.attempted,
                  "accepted"_a = statistics.accepted, "round_trips"_a = statistics.round_trips,
                  "steps"_a = statistics.steps, "closed_links"_a = statistics.closed_links());
}

}  // namespace

void bind_ladder(py::module_& module) {
  py::class_<PlacedPythonLadder>(module, "TemperingLadder",
                                 "Rungs placed along a path of models for a target exchange acceptance.")
      .def_readonly("rungs", &PlacedPythonLadder::rungs, "list of rbmix.Rbm, rung 0 (no couplings) first")
      .def_property_readonly(
          "positions", [](const PlacedPythonLadder& l) { return l.placed.positions; },
          "each rung's position on the path (0 = the independent model, K = the last)")
      .def_readonly("descriptions", &PlacedPythonLadder::descriptions, "each rung's model in words")
      .def_property_readonly(
          "estimated_acceptance", [](const PlacedPythonLadder& l) { return to_numpy(l.placed.estimated_acceptance); },
          "per link, the placement's estimate of the exchange acceptance")
      .def("__len__", [](const PlacedPythonLadder& l) { return l.rungs.size(); });

  module.def("place_ladder", &place, "trajectory"_a = py::none(), "temperature_model"_a = py::none(),
             "base_rows"_a = py::none(), "operator"_a = "gibbs", "target_acceptance"_a = 0.3, "candidates"_a = 400,
             "placement_chains"_a = 64, "placement_sweeps"_a = 10, "seed"_a = 1,
             "Places the rungs of a ladder along a trajectory (a Trajectory or its file) or, with temperature_model, "
             "along βθ (from the uniform distribution, or from the base-rate model of base_rows as AIS starts), so "
             "that each link exchanges at about target_acceptance (as rbmix sample --ptt).");

  module.def(
      "sample_ptt",
      [](const py::object& trajectory, const std::optional<Rbm>& temperature_model, const py::object& base_rows,
         const std::string& operator_name, Eigen::Index chains, Eigen::Index steps, Eigen::Index swap_interval,
         double target_acceptance, Eigen::Index candidates, Eigen::Index placement_chains,
         Eigen::Index placement_sweeps, std::uint64_t seed) {
        require(chains >= 1 && steps >= 1, "sample_ptt: chains and steps must be at least 1");
        const PlacedPythonLadder ladder =
            place(trajectory, temperature_model, base_rows, operator_name, target_acceptance, candidates,
                  placement_chains, placement_sweeps, seed);
        const UnitRule rule = parse_unit_rule(operator_name);
        LadderChains<double> ladders(ladder.rungs, chains, {rule, swap_interval}, seed);
        const Eigen::Index n_visible = ladder.rungs.front().n_visible();
        py::array_t<std::uint8_t> samples({steps, chains, n_visible});
        auto view = samples.mutable_unchecked<3>();
        {
          py::gil_scoped_release release;
          for (Eigen::Index step = 0; step < steps; ++step) {
            ladders.step();
            const MatrixD& top = ladders.top_visible();
            for (Eigen::Index chain = 0; chain < chains; ++chain)
              for (Eigen::Index unit = 0; unit < n_visible; ++unit)
                view(step, chain, unit) = static_cast<std::uint8_t>(top(chain, unit));
          }
        }
        py::dict out = statistics_dict(ladders.statistics());
        out["samples"] = samples;
        out["positions"] = ladder.placed.positions;
        out["descriptions"] = ladder.descriptions;
        out["estimated_acceptance"] = to_numpy(ladder.placed.estimated_acceptance);
        return out;
      },
      "trajectory"_a = py::none(), "temperature_model"_a = py::none(), "base_rows"_a = py::none(),
      "operator"_a = "gibbs", "chains"_a = 16, "steps"_a = 1000, "swap_interval"_a = 1, "target_acceptance"_a = 0.3,
      "candidates"_a = 400, "placement_chains"_a = 64, "placement_sweeps"_a = 10, "seed"_a = 1,
      "Parallel tempering along a training trajectory (as rbmix sample --ptt): returns a dict with samples "
      "(steps, chains, n_visible) uint8, the top rung after each ladder step, and acceptance (per link), attempted, "
      "accepted, round_trips, closed_links, positions, descriptions, estimated_acceptance.");

  py::class_<analysis::LadderConvergenceBound>(
      module, "LadderConvergenceBound",
      "The L-lag bound of coupled tempering ladders (as rbmix convergence --ptt); t counts ladder steps.")
      .def_readonly("bound", &analysis::LadderConvergenceBound::bound, "a ConvergenceBound over ladder steps")
      .def_property_readonly("statistics",
                             [](const analysis::LadderConvergenceBound& b) { return statistics_dict(b.statistics); })
      .def_readonly("closed_links", &analysis::LadderConvergenceBound::closed_links)
      .def_readonly("unmet_rungs", &analysis::LadderConvergenceBound::unmet_rungs,
                    "per pair: the rungs on which its two ladders still differ (0 once met)")
      .def_readonly("sweeps_per_step", &analysis::LadderConvergenceBound::sweeps_per_step)
      .def_property_readonly("bound_available", &analysis::LadderConvergenceBound::bound_available);

  module.def(
      "ladder_convergence_bound",
      [](const py::object& trajectory, const std::optional<Rbm>& temperature_model, const py::object& base_rows,
         const std::string& operator_name, Eigen::Index lag, Eigen::Index pairs, const std::string& start,
         Eigen::Index max_steps, std::uint64_t seed, Eigen::Index swap_interval, Eigen::Index maximal_within,
         double target_acceptance, Eigen::Index candidates, Eigen::Index placement_chains,
         Eigen::Index placement_sweeps, bool float32) {
        analysis::LadderBoundOptions options;
        options.coupling.rule = parse_unit_rule(operator_name);
        options.coupling.lag = lag;
        options.coupling.pairs = pairs;
        options.coupling.max_sweeps = max_steps;
        options.coupling.seed = seed;
        options.coupling.maximal_coupling_distance = maximal_within;
        options.coupling.single_precision = float32;
        options.swap_interval = swap_interval;
        options.coupling.validate();
        const analysis::StartDistribution start_distribution = analysis::parse_start_distribution(start);
        const PlacedPythonLadder ladder =
            place(trajectory, temperature_model, base_rows, operator_name, target_acceptance, candidates,
                  placement_chains, placement_sweeps, seed);
        py::gil_scoped_release release;
        return analysis::ladder_convergence_bound(ladder.rungs, start_distribution, options);
      },
      "trajectory"_a = py::none(), "temperature_model"_a = py::none(), "base_rows"_a = py::none(),
      "operator"_a = "gibbs", "lag"_a = 1, "pairs"_a = 20, "start"_a = "uniform", "max_steps"_a = 2000, "seed"_a = 1,
      "swap_interval"_a = 1, "maximal_within"_a = analysis::default_maximal_coupling_distance,
      "target_acceptance"_a = 0.3, "candidates"_a = 400, "placement_chains"_a = 64, "placement_sweeps"_a = 10,
      "float32"_a = false,
      "Couples pairs of tempering ladders (as rbmix convergence --ptt) and bounds the whole ladder's distance from "
      "its distribution after t ladder steps; no bound unless every pair met and every link exchanged.");

  module.def(
      "sample_path_metropolis",
      [](const py::object& trajectory, const std::optional<Rbm>& temperature_model, const py::object& base_rows,
         const std::string& operator_name, Eigen::Index chains, Eigen::Index samples, Eigen::Index burn_in,
         Eigen::Index particles, Eigen::Index smc_steps, int sweeps_per_step, double resampling_threshold,
         std::uint64_t seed, bool float32) {
        PathMetropolisOptions options;
        options.particles = particles;
        options.steps = smc_steps;
        options.sweeps_per_step = sweeps_per_step;
        options.resampling_threshold = resampling_threshold;
        options.rule = parse_unit_rule(operator_name);
        options.single_precision = float32;
        const ModelPath path = path_of(trajectory, temperature_model, base_rows);
        const PathProposals proposals(path, options);
        require(chains >= 1 && samples >= 1, "sample_path_metropolis: chains and samples must be at least 1");
        const Eigen::Index n_visible = path.n_visible();
        py::array_t<std::uint8_t> drawn({samples, chains, n_visible});
        auto view = drawn.mutable_unchecked<3>();
        PathMetropolisSampling run;
        {
          py::gil_scoped_release release;
          run = sample_path_metropolis(proposals, chains, burn_in, samples, seed,
                                       [&](Eigen::Index sample, Eigen::Index chain, const VectorD& visible) {
                                         for (Eigen::Index unit = 0; unit < n_visible; ++unit)
                                           view(sample, chain, unit) = static_cast<std::uint8_t>(visible[unit]);
                                       });
        }
        py::dict out;
        out["samples"] = drawn;
        out["accepted"] = run.accepted;
        out["proposals_after_start"] = run.proposals_after_start;
        const VectorD log_partitions = Eigen::Map<const VectorD>(
            run.proposal_log_partitions.data(), static_cast<Eigen::Index>(run.proposal_log_partitions.size()));
        out["proposal_log_partitions"] = to_numpy(log_partitions);
        return out;
      },
      "trajectory"_a = py::none(), "temperature_model"_a = py::none(), "base_rows"_a = py::none(),
      "operator"_a = "gibbs", "chains"_a = 4, "samples"_a = 100, "burn_in"_a = 0, "particles"_a = 100,
      "smc_steps"_a = 800, "sweeps_per_step"_a = 4, "resampling_threshold"_a = 0.7, "seed"_a = 1, "float32"_a = false,
      "Particle independent Metropolis-Hastings along a trajectory's path (as rbmix sample --particle-metropolis): "
      "each chain starts at a proposal, takes burn_in proposals, then records its state after each of `samples` "
      "more. Returns a dict with samples (samples, chains, n_visible) uint8, accepted, proposals_after_start and "
      "proposal_log_partitions (chain by chain).");

  py::class_<analysis::PathMetropolisBound>(
      module, "PathMetropolisBound",
      "The L-lag bound of coupled particle independent Metropolis-Hastings chains along a path (as rbmix "
      "convergence --particle-metropolis); t counts proposals.")
      .def_readonly("bound", &analysis::PathMetropolisBound::bound, "a ConvergenceBound over proposals")
      .def_readonly("proposals", &analysis::PathMetropolisBound::proposals,
                    "proposals drawn for the first chains, their starts included")
      .def_readonly("accepted", &analysis::PathMetropolisBound::accepted, "of them, accepted after the start")
      .def_property_readonly(
          "proposal_log_partitions",
          [](const analysis::PathMetropolisBound& b) {
            const VectorD values = Eigen::Map<const VectorD>(
                b.proposal_log_partitions.data(), static_cast<Eigen::Index>(b.proposal_log_partitions.size()));
            return to_numpy(values);
          },
          "log Z-hat of every proposal, in the order drawn")
      .def_property_readonly(
          "mass_check",
          [](const analysis::PathMetropolisBound& b) -> std::optional<py::dict> {
            if (!b.mass_check.performed()) return std::nullopt;
            py::dict check;
            check["proposals_log_partition"] = b.mass_check.proposals_log_partition;
            check["reference_log_partition"] = b.mass_check.reference_log_partition;
            check["reference"] = b.mass_check.reference;
            check["gap"] = b.mass_check.gap();
            check["allowed_gap"] = b.mass_check.allowed_gap;
            check["passed"] = b.mass_check.passed();
            return check;
          },
          "the proposals' log mean Z-hat against the last model's log Z (a dict, None unless every pair met); a "
          "failure withholds the bound (bound.withheld says why)");

  module.def(
      "path_metropolis_bound",
      [](const py::object& trajectory, const std::optional<Rbm>& temperature_model, const py::object& base_rows,
         const std::string& operator_name, Eigen::Index lag, Eigen::Index pairs, Eigen::Index max_proposals,
         std::uint64_t seed, Eigen::Index particles, Eigen::Index smc_steps, int sweeps_per_step,
         double resampling_threshold, bool float32, double mass_gap) {
        analysis::PathMetropolisBoundOptions options;
        require(!std::isnan(mass_gap) && mass_gap >= 0.0, "mass_gap must be at least 0 nats (inf turns it off)");
        options.allowed_mass_gap = mass_gap;
        options.coupling.rule = parse_unit_rule(operator_name);
        options.coupling.lag = lag;
        options.coupling.pairs = pairs;
        options.coupling.max_sweeps = max_proposals;
        options.coupling.seed = seed;
        options.coupling.single_precision = float32;
        options.proposals.particles = particles;
        options.proposals.steps = smc_steps;
        options.proposals.sweeps_per_step = sweeps_per_step;
        options.proposals.resampling_threshold = resampling_threshold;
        options.coupling.validate();
        const ModelPath path = path_of(trajectory, temperature_model, base_rows);
        py::gil_scoped_release release;
        return analysis::path_metropolis_bound(path, options);
      },
      "trajectory"_a = py::none(), "temperature_model"_a = py::none(), "base_rows"_a = py::none(),
      "operator"_a = "gibbs", "lag"_a = 1, "pairs"_a = 20, "max_proposals"_a = 200, "seed"_a = 1, "particles"_a = 100,
      "smc_steps"_a = 800, "sweeps_per_step"_a = 4, "resampling_threshold"_a = 0.7, "float32"_a = false,
      "mass_gap"_a = analysis::PathMetropolisBoundOptions{}.allowed_mass_gap,
      "Couples pairs of particle independent Metropolis-Hastings chains whose proposals are sequential Monte Carlo "
      "runs along the path (as rbmix convergence --particle-metropolis) and bounds the distance of the chain's "
      "sample from the path's last model after t proposals; no bound unless every pair met and the proposals' mean "
      "Z-hat is within mass_gap nats of the last model's log Z (exact while small, else AIS).");
}

}  // namespace rbmix::python
