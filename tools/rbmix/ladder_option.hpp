#pragma once
// The tempering ladder of `rbmix sample` and `rbmix convergence` (docs/algorithms/tempering-along-trajectory.md):
// --ptt TRAJECTORY (rungs along the models a training run kept) or --temperature-ladder (rungs βθ of --model, β from
// 0 to 1), with the rungs placed at a target exchange acceptance. The same options, checks and report in both.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "rbmix/analysis/convergence_bound.hpp"
#include "rbmix/sampling/tempering_ladder.hpp"
#include "rbmix/training/particle_independent_metropolis.hpp"

namespace rbmix::cli {

struct LadderArguments {
  std::string trajectory;  // --ptt
  bool temperature = false;
  std::string base_rate_file;  // --base-rate: with --temperature-ladder, β = 0 is these rows' base-rate model
  double target_acceptance = 0.3;
  Eigen::Index candidates = 400;
  Eigen::Index placement_chains = 64;
  Eigen::Index placement_sweeps = 10;
  Eigen::Index swap_interval = 1;
  CLI::Option* ptt_option = nullptr;
  CLI::Option* temperature_option = nullptr;

  bool given() const { return !trajectory.empty() || temperature; }
};

// Declares --ptt, --temperature-ladder, --base-rate, --target-acceptance, --ladder-candidates, --placement-chains,
// --placement-sweeps and --swap-interval.
void add_ladder_options(CLI::App& command, LadderArguments& arguments);

// The path's model at its start, in words, for run.json: "the trajectory's independent model", "uniform", or
// "base rate of FILE" (--base-rate).
std::string path_start(const LadderArguments& arguments);

struct BuiltLadder {
  std::vector<Rbm> rungs;
  PlacedLadder placed;
  std::vector<std::string> descriptions;  // of each rung, on the path
  std::string source;                     // the trajectory file, or the model file
  Eigen::Index n_visible = 0;
};

// Declares --particle-metropolis (into `chosen`) and the options of its proposals: --particles, --smc-steps,
// --sweeps-per-step, --resampling-threshold (docs/algorithms/tempering-along-trajectory.md §10.7).
void add_particle_metropolis_options(CLI::App& command, bool& chosen, PathMetropolisOptions& options,
                                     const std::string& what);

// run.json's record of particle Metropolis's mass check (§10.7), the same in `convergence` and `sample`.
nlohmann::json mass_check_record(const analysis::ProposalMassCheck& check);

// The path of the ladder: the trajectory's (--ptt), or βθ of `model_file` (--temperature-ladder); `source` is set to
// the file it came from.
ModelPath ladder_path(const LadderArguments& arguments, const std::string& model_file, std::string& source);

// Reads the trajectory (or takes `model` for a temperature ladder), places the rungs and, with `announce`, prints a
// line about them on stderr. `model_file` is the --model of the command (required for --temperature-ladder, refused
// with --ptt).
BuiltLadder build_ladder(const LadderArguments& arguments, const std::string& model_file, const UnitRule& rule,
                         std::uint64_t seed, bool single_precision, bool announce);

// The ladder's configuration and the statistics of a run, for run.json.
nlohmann::json ladder_record(const LadderArguments& arguments, const BuiltLadder& ladder,
                             const LadderStatistics& statistics);
// The table of rungs: position, model, estimated and measured acceptance of the link above it.
void write_ladder_csv(const std::filesystem::path& file, const BuiltLadder& ladder, const LadderStatistics& statistics);
// Lines for the terminal: the rungs, the acceptance per link (range and median), round trips, and closed links.
void print_ladder_summary(std::ostream& out, const BuiltLadder& ladder, const LadderStatistics& statistics);

}  // namespace rbmix::cli
