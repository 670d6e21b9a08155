#pragma once
// Upper bounds on the distance of a chain from its target after t sweeps, from L-lag couplings (Biswas, Jacob &
// Vanetti 2019; docs/algorithms/convergence-bounds.md §6.8). R independent pairs: X₀ and Y₀ drawn independently from
// π₀; X advances L sweeps alone; then (X_t, Y_{t−L}) advance together by the coupled sweep
// (rbmix/sampling/coupled_chains.hpp) until they meet, τ = inf{t > L : X_t = Y_{t−L}}. Then
//   d_TV(π₀Pᵗ, π) ≤ E[max(0, ⌈(τ − L − t)/L⌉)],
//   d_W(π₀Pᵗ, π) ≤ E[Σ_{j ≥ 1, t + jL < τ} |X_{t+jL} − Y_{t+(j−1)L}|]   (Hamming distance of (v, h)),
// each estimated by the mean over the pairs, with its Monte Carlo standard error (standard deviation / √R).
// A pair that has not met by max_sweeps has an unknown τ, so a censored run claims no bound at all: it reports the
// pairs that met, their meeting times and the budget, and its curves are empty.
// The bound holds for a chain that converges to π. A periodic chain's lagged copies can meet (the naive flip on the
// zero RBM with an even lag) although it never converges, so on a model small enough to enumerate the sweep's
// ergodicity is decided exactly (ergodicity.hpp) and a non-ergodic operator gets no bound; on a larger model a rule
// that does not claim ergodicity on every RBM (naive, unit-modified:1) is reported as such.
// The whole-sweep modified matrix (001 §3), which is no product of unit rules, is coupled on tiny models by a maximal
// coupling of its dense rows (coupled_rows.hpp).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rbmix/analysis/start_distribution.hpp"
#include "rbmix/estimation/ais.hpp"
#include "rbmix/sampling/tempering_ladder.hpp"
#include "rbmix/sampling/unit_rule.hpp"
#include "rbmix/training/particle_independent_metropolis.hpp"

namespace rbmix::analysis {

// Pairs within this many differing units of (v, h) switch from shared uniforms to the maximal coupling of each
// layer's conditional. Measured on 784 × 500 random RBMs (docs/algorithms/convergence-bounds.md §6.8): with weights
// U[−0.1, 0.1] pairs settle at a distance near 70 under shared uniforms, and from within 60 units the maximal coupling
// meets.
inline constexpr Eigen::Index default_maximal_coupling_distance = 60;

// The whole-sweep modified matrix is coupled through its dense rows: 2^10 joint states, an 8 MiB matrix.
inline constexpr int max_modified_sweep_coupling_units = 10;

struct ConvergenceBoundOptions {
  UnitRule rule = GibbsRule{};
  // Couple the whole-sweep modified matrix of `rule` (001 §3, λ = min_x K(x, x); analyze's modified:RULE) instead of
  // the rule's sweep: dense rows, maximally coupled, at most max_modified_sweep_coupling_units units.
  bool modified_sweep = false;
  double inverse_temperature = 1.0;
  Eigen::Index lag = 1;             // L
  Eigen::Index pairs = 100;         // R
  Eigen::Index max_sweeps = 10000;  // of the first chain, lag included: pairs not met by then are censored
  std::uint64_t seed = 1;           // pair b draws from RandomStream(seed, b)
  Eigen::Index maximal_coupling_distance = default_maximal_coupling_distance;
  bool single_precision = false;  // run the chains in float (the same operator, rounded inputs)
  // Called after every coupled sweep with the first chain's sweep count and the number of pairs met so far.
  std::function<void(Eigen::Index sweeps, Eigen::Index met)> progress;
  // Throws InputError naming the option: lag ≥ 1, pairs ≥ 2 (a standard error needs two), max_sweeps > lag, β
  // finite and ≥ 0, maximal_coupling_distance ≥ −1.
  void validate() const;
};

// What is known of the ergodicity the bound assumes.
enum class BoundErgodicity {
  checked,  // decided exactly on the model: ergodic
  claimed,  // the rule is ergodic on every RBM (unit_rule.hpp), the model too large to check
  unknown,  // the rule does not claim ergodicity and the model is too large to check
  refuted,  // decided exactly on the model: not ergodic, so no bound
};
std::string to_string(BoundErgodicity ergodicity);

struct ConvergenceBound {
  Eigen::Index lag = 1;
  Eigen::Index max_sweeps = 0;
  // τ of every pair, in pair order; nullopt for a pair that had not met by max_sweeps.
  std::vector<std::optional<Eigen::Index>> meeting_times;
  Eigen::Index met = 0;
  BoundErgodicity ergodicity = BoundErgodicity::unknown;
  // Curves over t = 0 … max τ − L (the last entry 0), empty unless bound_available().
  VectorD total_variation;
  VectorD total_variation_standard_error;
  VectorD wasserstein;
  VectorD wasserstein_standard_error;
  // Non-empty: the bound is withheld for this reason although every pair met (a check of the run failed).
  std::string withheld;

  bool all_met() const { return met == static_cast<Eigen::Index>(meeting_times.size()); }
  double share_met() const { return static_cast<double>(met) / static_cast<double>(meeting_times.size()); }
  bool bound_available() const { return all_met() && ergodicity != BoundErgodicity::refuted && withheld.empty(); }
  // t_mix(ε) from the bound: the first t with bound ≤ ε; nullopt without a bound.
  std::optional<Eigen::Index> mixing_time(double epsilon) const;
};

// Runs the R pairs under `options` from `start` on `rbm` (any size).
ConvergenceBound convergence_bound(const Rbm& rbm, const StartDistribution& start,
                                   const ConvergenceBoundOptions& options);

// The bound's curves from meeting times and the pairs' distance traces (distances[b][s − L] = |X_s − Y_{s−L}| for
// s = L … τ_b − 1): what convergence_bound computes once the pairs have met, on its own so that it can be checked
// against hand-computed cases.
void fill_bound_curves(ConvergenceBound& bound, const std::vector<std::vector<std::uint32_t>>& distances);

// The bound for coupled tempering ladders (rbmix/sampling/coupled_ladders.hpp; 
// docs/algorithms/tempering-along-trajectory.md §10.4): the chain is the whole ladder, one step = 2·swap_interval sweeps of every rung
// and two exchange phases; lag, max_sweeps and the bound's t count ladder steps. π₀ starts every rung of both ladders
// independently (rung 0 is drawn exactly at the first sweep). The bound on the whole ladder bounds the distance of
// the top rung's law from its model's distribution. A link whose exchanges were all refused splits the ladder: no
// bound then, whatever met.
struct LadderBoundOptions {
  ConvergenceBoundOptions coupling;  // the rule inside the rungs, lag, pairs, max_sweeps (ladder steps), seed, ...
  Eigen::Index swap_interval = 1;
};

struct LadderConvergenceBound {
  ConvergenceBound bound;
  LadderStatistics statistics;  // of the first ladders, lag and coupled steps
  std::vector<Eigen::Index> closed_links;
  std::vector<Eigen::Index> unmet_rungs;  // per pair at the end: rungs on which its two ladders differ
  Eigen::Index sweeps_per_step = 2;
  bool bound_available() const { return bound.bound_available() && closed_links.empty(); }
};

LadderConvergenceBound ladder_convergence_bound(const std::vector<Rbm>& rungs, const StartDistribution& start,
                                                const LadderBoundOptions& options);

// The bound for coupled particle independent Metropolis–Hastings along a path of models
// (rbmix/training/particle_independent_metropolis.hpp; docs/algorithms/tempering-along-trajectory.md §10.7): a sweep
// of the L-lag run is one proposal, a sequential Monte Carlo run along the path that both chains of a pair share with
// its uniform. π₀ is the proposal's own law (each chain starts at a proposal). The distance is the Hamming distance of
// the two chains' visible states, and at least 1 while their Ẑ differ. The chain's state is (Ẑ, v) on the run's
// extended space, so the bound on it bounds the law of v, the sample, from the path's last model's distribution.
struct PathMetropolisBoundOptions {
  ConvergenceBoundOptions coupling;  // lag, pairs, max_sweeps (proposals), seed, progress; the moves' rule, precision
  PathMetropolisOptions proposals;   // particles, steps, sweeps; its rule and precision are coupling's
  // Optional: called after every proposal drawn, with the count drawn so far. A proposal is a whole sequential Monte
  // Carlo run (seconds at MNIST size), and the pairs' starts and lag draw (2 + L) per pair before coupling.progress is
  // first called, so a progress line needs this one to move at all during the start.
  std::function<void(std::int64_t drawn)> on_proposal;
  // The mass check (docs/algorithms/tempering-along-trajectory.md §10.7): the bound is withheld when the log of the
  // proposals' mean Ẑ falls more than allowed_mass_gap nats below a reference log Z of the path's last model, exact
  // while its smaller layer has at most max_exact_reference_units units, else by AIS (reference_ais, from the path's
  // first model's visible biases). Infinity turns the check off.
  double allowed_mass_gap = 2.0;
  AisOptions reference_ais;
};

inline constexpr Eigen::Index max_exact_reference_units = 20;

// E_q[Ẑ] = Z: the proposals' mean Ẑ estimates Z, so a mean far below an independent estimate of Z shows that the
// proposals drawn missed those that carry the model's mass, the ones a chain at equilibrium holds. Their meeting times
// then say nothing about the tail the bound's expectation needs.
struct ProposalMassCheck {
  double proposals_log_partition = 0.0;  // log mean Ẑ over every proposal drawn
  double reference_log_partition = 0.0;
  std::string reference;                 // "exact" or "AIS (P particles, K distributions)"
  double allowed_gap = 0.0;
  bool performed() const { return !reference.empty(); }
  double gap() const { return reference_log_partition - proposals_log_partition; }
  bool passed() const { return !(gap() > allowed_gap); }
  // The reason the bound is withheld, for reports: the two values, the gap, and what to change.
  std::string failure() const;
};

// The check of proposal log Ẑs against a reference log Z, their log mean Ẑ formed by log_mean_with_band (at least
// two proposals; every run draws 2 per pair). Throws InputError for fewer, or for a NaN reference or gap.
ProposalMassCheck check_proposal_mass(const std::vector<double>& proposal_log_partitions,
                                      double reference_log_partition, std::string reference, double allowed_gap);
// The same against the path's last model: its exact log Z while the smaller layer has at most
// max_exact_reference_units units, else AIS (`ais`, from the path's first model's visible biases). What
// path_metropolis_bound checks, and what `rbmix sample --particle-metropolis` reports beside its samples.
ProposalMassCheck check_path_proposal_mass(const ModelPath& path, const std::vector<double>& proposal_log_partitions,
                                           double allowed_gap, AisOptions ais = {});

struct PathMetropolisBound {
  ConvergenceBound bound;
  std::int64_t proposals = 0;  // drawn for the first chains, start included
  std::int64_t accepted = 0;   // of them, by the first chains after their start
  // log Ẑ of every proposal, in the order drawn: their spread sets how often a chain accepts.
  std::vector<double> proposal_log_partitions;
  ProposalMassCheck mass_check;  // made once every pair has met; a failure withholds the bound (bound.withheld)
};

PathMetropolisBound path_metropolis_bound(const ModelPath& path, const PathMetropolisBoundOptions& options);

}  // namespace rbmix::analysis
