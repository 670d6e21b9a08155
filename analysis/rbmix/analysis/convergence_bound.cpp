#include "rbmix/analysis/convergence_bound.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <utility>

#include "rbmix/analysis/coupled_rows.hpp"
#include "rbmix/analysis/ergodicity.hpp"
#include "rbmix/analysis/exact_total_variation.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/model/exact.hpp"
#include "rbmix/model/tempering.hpp"
#include "rbmix/sampling/coupled_chains.hpp"
#include "rbmix/sampling/coupled_ladders.hpp"

namespace rbmix::analysis {
namespace {

// The pairs' start states: X₀ then Y₀ of pair b from pair b's stream, independently from π₀; `store(pair, chain,
// visible, hidden)` keeps each.
template <typename Store>
void draw_start_states(Eigen::Index pairs, std::vector<RandomStream>& streams, const Rbm& rbm,
                       const StartDistribution& start, double inverse_temperature, const Store& store) {
  VectorD visible(rbm.n_visible()), hidden(rbm.n_hidden());
  for (Eigen::Index pair = 0; pair < pairs; ++pair)
    for (const CoupledChain chain : {CoupledChain::first, CoupledChain::second}) {
      draw_start_state(start, rbm, inverse_temperature, streams[static_cast<std::size_t>(pair)], visible.data(),
                       hidden.data());
      store(pair, chain, visible, hidden);
    }
}

// The pairs of a unit rule's sweep: CoupledChains on the model.
template <typename Scalar>
class UnitRulePairs {
 public:
  UnitRulePairs(const Rbm& rbm, const StartDistribution& start, const ConvergenceBoundOptions& options)
      : model_(rbm.cast<Scalar>()),
        rule_(options.rule),
        beta_(static_cast<Scalar>(options.inverse_temperature)),
        chains_(options.pairs, rbm.n_visible(), rbm.n_hidden(), options.maximal_coupling_distance, options.seed) {
    draw_start_states(options.pairs, chains_.streams(), rbm, start, options.inverse_temperature,
                      [&](Eigen::Index pair, CoupledChain chain, const VectorD& visible, const VectorD& hidden) {
                        chains_.visible(chain).row(pair) = visible.transpose().cast<Scalar>();
                        chains_.hidden(chain).row(pair) = hidden.transpose().cast<Scalar>();
                      });
  }
  void sweep_first() { chains_.sweep_first(model_, rule_, beta_); }
  void coupled_sweep() { chains_.coupled_sweep(model_, rule_, beta_); }
  Eigen::Index distance(Eigen::Index pair) const { return chains_.distance(pair); }

 private:
  BasicRbm<Scalar> model_;
  UnitRule rule_;
  Scalar beta_;
  CoupledChains<Scalar> chains_;
};

// The pairs of the whole-sweep modified matrix A′ = (A − λI)/(1 − λ), λ = min_x A(x, x) (001 §3): joint state
// indices stepped by rows of the dense A′, maximally coupled (coupled_rows.hpp).
class ModifiedSweepPairs {
 public:
  ModifiedSweepPairs(const MatrixD& modified, const Rbm& rbm, const StartDistribution& start,
                     const ConvergenceBoundOptions& options)
      : modified_(modified), first_(options.pairs), second_(options.pairs) {
    for (Eigen::Index pair = 0; pair < options.pairs; ++pair)
      streams_.emplace_back(options.seed, static_cast<std::uint64_t>(pair), StreamDomain::chains);
    const JointStateSpace space(rbm);
    draw_start_states(options.pairs, streams_, rbm, start, options.inverse_temperature,
                      [&](Eigen::Index pair, CoupledChain chain, const VectorD& visible, const VectorD& hidden) {
                        std::uint64_t v = 0, h = 0;
                        for (Eigen::Index j = 0; j < visible.size(); ++j) v |= std::uint64_t{visible[j] != 0.0} << j;
                        for (Eigen::Index i = 0; i < hidden.size(); ++i) h |= std::uint64_t{hidden[i] != 0.0} << i;
                        (chain == CoupledChain::first ? first_ : second_)[static_cast<std::size_t>(pair)] =
                            static_cast<Eigen::Index>(space.index(v, h));
                      });
  }
  void sweep_first() {
    for (std::size_t pair = 0; pair < first_.size(); ++pair)
      first_[pair] = draw_from_row(modified_, first_[pair], streams_[pair]);
  }
  void coupled_sweep() {
    for (std::size_t pair = 0; pair < first_.size(); ++pair)
      std::tie(first_[pair], second_[pair]) = draw_coupled_rows(modified_, first_[pair], second_[pair], streams_[pair]);
  }
  Eigen::Index distance(Eigen::Index pair) const {
    const auto index = static_cast<std::size_t>(pair);
    return std::popcount(static_cast<std::uint64_t>(first_[index] ^ second_[index]));
  }

 private:
  const MatrixD& modified_;
  std::vector<Eigen::Index> first_, second_;  // joint state indices (JointStateSpace)
  std::vector<RandomStream> streams_;
};

// The pairs of coupled tempering ladders: one ladder step per sweep of the L-lag run.
template <typename Scalar>
class LadderPairs {
 public:
  LadderPairs(const std::vector<Rbm>& rungs, const StartDistribution& start, const LadderBoundOptions& options)
      : ladders_(rungs, options.coupling.pairs, LadderOptions{options.coupling.rule, options.swap_interval},
                 options.coupling.maximal_coupling_distance, options.coupling.seed) {
    for (std::size_t k = 0; k < rungs.size(); ++k) {
      CoupledChains<Scalar>& rung = ladders_.rung(static_cast<Eigen::Index>(k));
      draw_start_states(options.coupling.pairs, rung.streams(), rungs[k], start, 1.0,
                        [&](Eigen::Index pair, CoupledChain chain, const VectorD& visible, const VectorD& hidden) {
                          rung.visible(chain).row(pair) = visible.transpose().cast<Scalar>();
                          rung.hidden(chain).row(pair) = hidden.transpose().cast<Scalar>();
                        });
    }
  }
  void sweep_first() { ladders_.step_first(); }
  void coupled_sweep() { ladders_.coupled_step(); }
  Eigen::Index distance(Eigen::Index pair) const { return ladders_.distance(pair); }
  const CoupledLadders<Scalar>& ladders() const { return ladders_; }

 private:
  CoupledLadders<Scalar> ladders_;
};

// The pairs of particle independent Metropolis–Hastings along a path: pair b's proposals and uniforms come from
// RandomStream(seed, b, tempering), the first chain's lag steps and then both chains' shared steps in turn.
class PathMetropolisPairs {
 public:
  PathMetropolisPairs(const ModelPath& path, const PathMetropolisBoundOptions& options, PathMetropolisBound& record)
      : proposals_(path, with_coupling(options)), record_(record), on_proposal_(options.on_proposal) {
    for (Eigen::Index pair = 0; pair < options.coupling.pairs; ++pair) {
      RandomStream& stream = streams_.emplace_back(options.coupling.seed, static_cast<std::uint64_t>(pair),
                                                   StreamDomain::tempering);
      first_.push_back(draw(stream, true));
      second_.push_back(draw(stream, false));
    }
  }
  void sweep_first() {
    for (std::size_t pair = 0; pair < first_.size(); ++pair) {
      const PathMetropolisState proposal = draw(streams_[pair], true);
      record_.accepted += PathProposals::accept(first_[pair], proposal, streams_[pair].uniform());
    }
  }
  void coupled_sweep() {
    for (std::size_t pair = 0; pair < first_.size(); ++pair) {
      // A pair that has met moves as one and adds nothing to the bound: its proposals, whole sequential Monte Carlo
      // runs, are not drawn.
      if (first_[pair] == second_[pair]) continue;
      const PathMetropolisState proposal = draw(streams_[pair], true);
      const double uniform = streams_[pair].uniform();
      record_.accepted += PathProposals::accept(first_[pair], proposal, uniform);
      PathProposals::accept(second_[pair], proposal, uniform);
    }
  }
  Eigen::Index distance(Eigen::Index pair) const {
    const auto index = static_cast<std::size_t>(pair);
    if (first_[index] == second_[index]) return 0;
    const auto differing = (first_[index].visible.array() != second_[index].visible.array()).count();
    return std::max<Eigen::Index>(1, differing);
  }

 private:
  static PathMetropolisOptions with_coupling(const PathMetropolisBoundOptions& options) {
    PathMetropolisOptions proposals = options.proposals;
    proposals.rule = options.coupling.rule;
    proposals.single_precision = options.coupling.single_precision;
    return proposals;
  }
  PathMetropolisState draw(RandomStream& stream, bool for_first) {
    PathMetropolisState proposal = proposals_.draw(stream);
    record_.proposal_log_partitions.push_back(proposal.log_partition);
    if (for_first) ++record_.proposals;
    if (on_proposal_) on_proposal_(static_cast<std::int64_t>(record_.proposal_log_partitions.size()));
    return proposal;
  }

  PathProposals proposals_;
  PathMetropolisBound& record_;
  std::function<void(std::int64_t)> on_proposal_;
  std::vector<RandomStream> streams_;
  std::vector<PathMetropolisState> first_, second_;
};

// Mean and Monte Carlo standard error (sample standard deviation / √R) of per-pair values.
std::pair<double, double> mean_and_standard_error(const VectorD& values) {
  const double mean = values.mean();
  const auto count = static_cast<double>(values.size());
  const double variance = (values.array() - mean).square().sum() / (count - 1.0);
  return {mean, std::sqrt(variance / count)};
}

BoundErgodicity sweep_ergodicity(const Rbm& rbm, const UnitRule& rule, double inverse_temperature) {
  if (rbm.n_visible() + rbm.n_hidden() <= max_exact_distance_units) {
    const ErgodicityReport report = analyse_sweep_ergodicity(
        JointStateSpace(rbm),
        unit_transition_table(rbm, rule, Layer::hidden, inverse_temperature, Evaluation::structural),
        unit_transition_table(rbm, rule, Layer::visible, inverse_temperature, Evaluation::structural));
    return report.ergodic() ? BoundErgodicity::checked : BoundErgodicity::refuted;
  }
  const bool claimed = std::visit([](const auto& concrete) { return concrete.claims_ergodicity(); }, rule);
  return claimed ? BoundErgodicity::claimed : BoundErgodicity::unknown;
}

// The L-lag run of any pairs: the lag, then coupled sweeps until every pair has met or the limit is reached.
template <typename Pairs>
ConvergenceBound run_pairs(Pairs& pairs, const ConvergenceBoundOptions& options) {
  for (Eigen::Index sweep = 0; sweep < options.lag; ++sweep) pairs.sweep_first();

  ConvergenceBound bound;
  bound.lag = options.lag;
  bound.max_sweeps = options.max_sweeps;
  bound.meeting_times.assign(static_cast<std::size_t>(options.pairs), std::nullopt);
  // distances[b][s − L] = |X_s − Y_{s−L}| for s = L, L + 1, … until pair b meets.
  std::vector<std::vector<std::uint32_t>> distances(static_cast<std::size_t>(options.pairs));
  for (Eigen::Index pair = 0; pair < options.pairs; ++pair)
    distances[static_cast<std::size_t>(pair)].push_back(static_cast<std::uint32_t>(pairs.distance(pair)));
  for (Eigen::Index sweep = options.lag + 1; sweep <= options.max_sweeps && !bound.all_met(); ++sweep) {
    pairs.coupled_sweep();
    for (Eigen::Index pair = 0; pair < options.pairs; ++pair) {
      const auto index = static_cast<std::size_t>(pair);
      if (bound.meeting_times[index]) continue;
      const Eigen::Index distance = pairs.distance(pair);
      if (distance == 0) {
        bound.meeting_times[index] = sweep;
        ++bound.met;
      } else {
        distances[index].push_back(static_cast<std::uint32_t>(distance));
      }
    }
    if (options.progress) options.progress(sweep, bound.met);
  }
  if (bound.all_met()) fill_bound_curves(bound, distances);
  return bound;
}

}  // namespace

void ConvergenceBoundOptions::validate() const {
  // Named as the CLI and Python name them (lag, pairs, max_sweeps, maximal_within).
  require(lag >= 1, "convergence bound: --lag must be at least 1, got " + std::to_string(lag));
  require(pairs >= 2,
          "convergence bound: --pairs must be at least 2 (a standard error needs two), got " + std::to_string(pairs));
  require(max_sweeps > lag, "convergence bound: --max-sweeps (" + std::to_string(max_sweeps) +
                                ") must exceed the lag --lag (" + std::to_string(lag) + ")");
  validate_inverse_temperature(inverse_temperature);
  require(maximal_coupling_distance >= never_maximal_coupling,
          "convergence bound: --maximal-within must be -1 (shared uniforms only) or a number of units ≥ 0, got " +
              std::to_string(maximal_coupling_distance));
}

std::string to_string(BoundErgodicity ergodicity) {
  switch (ergodicity) {
    case BoundErgodicity::checked:
      return "ergodic (decided exactly on the model)";
    case BoundErgodicity::claimed:
      return "ergodic (the rule is ergodic on every RBM)";
    case BoundErgodicity::unknown:
      return "unknown (the rule is not ergodic on every RBM; the model is too large to check)";
    case BoundErgodicity::refuted:
      return "NOT ergodic (decided exactly on the model): the chain does not converge to pi";
  }
  return {};
}

std::optional<Eigen::Index> ConvergenceBound::mixing_time(double epsilon) const {
  if (!bound_available()) return std::nullopt;
  return first_time_within(total_variation, epsilon);
}

void fill_bound_curves(ConvergenceBound& bound, const std::vector<std::vector<std::uint32_t>>& distances) {
  require(bound.all_met() && distances.size() == bound.meeting_times.size(),
          "fill_bound_curves: every pair must have met and have its distance trace");
  const Eigen::Index lag = bound.lag;
  Eigen::Index latest = 0;
  for (const auto& time : bound.meeting_times) latest = std::max(latest, *time);
  const Eigen::Index times = latest - lag + 1;  // t = 0 … max τ − L
  const auto pairs = static_cast<Eigen::Index>(distances.size());
  MatrixD total_variation_terms(times, pairs), wasserstein_terms(times, pairs);
  for (Eigen::Index pair = 0; pair < pairs; ++pair) {
    const Eigen::Index meeting = *bound.meeting_times[static_cast<std::size_t>(pair)];
    const std::vector<std::uint32_t>& trace = distances[static_cast<std::size_t>(pair)];
    require(static_cast<Eigen::Index>(trace.size()) == meeting - lag,
            "fill_bound_curves: a distance trace must run from s = L to τ − 1");
    // suffix[s − L] = Σ_{j ≥ 0, s + jL < τ} d_{s+jL}, so that the Wasserstein term at t is suffix[t].
    std::vector<double> suffix(trace.begin(), trace.end());
    for (Eigen::Index i = static_cast<Eigen::Index>(suffix.size()) - 1 - lag; i >= 0; --i)
      suffix[static_cast<std::size_t>(i)] += suffix[static_cast<std::size_t>(i + lag)];
    for (Eigen::Index t = 0; t < times; ++t) {
      // max(0, ⌈(τ − L − t)/L⌉) in integers: the number of j ≥ 1 with t + jL < τ.
      const Eigen::Index remaining = meeting - lag - t;
      total_variation_terms(t, pair) = remaining > 0 ? static_cast<double>((remaining + lag - 1) / lag) : 0.0;
      wasserstein_terms(t, pair) = remaining > 0 ? suffix[static_cast<std::size_t>(t)] : 0.0;
    }
  }
  bound.total_variation.resize(times);
  bound.total_variation_standard_error.resize(times);
  bound.wasserstein.resize(times);
  bound.wasserstein_standard_error.resize(times);
  for (Eigen::Index t = 0; t < times; ++t) {
    std::tie(bound.total_variation[t], bound.total_variation_standard_error[t]) =
        mean_and_standard_error(total_variation_terms.row(t).transpose());
    std::tie(bound.wasserstein[t], bound.wasserstein_standard_error[t]) =
        mean_and_standard_error(wasserstein_terms.row(t).transpose());
  }
}

ConvergenceBound convergence_bound(const Rbm& rbm, const StartDistribution& start,
                                   const ConvergenceBoundOptions& options) {
  options.validate();
  validate_start_distribution(start, rbm);
  ConvergenceBound bound;
  if (options.modified_sweep) {
    require(rbm.n_visible() + rbm.n_hidden() <= max_modified_sweep_coupling_units, [&] {
      return "convergence bound: the whole-sweep modified matrix is coupled through its dense rows, for at most " +
             std::to_string(max_modified_sweep_coupling_units) + " units; the model has " +
             std::to_string(rbm.n_visible() + rbm.n_hidden());
    });
    const MatrixD sweep = sweep_transition_matrix(rbm, options.rule, options.inverse_temperature);
    const MatrixD modified = modified_matrix(sweep, sweep.diagonal().minCoeff());
    ModifiedSweepPairs pairs(modified, rbm, start, options);
    bound = run_pairs(pairs, options);
    // A′ keeps A's structural pattern off the diagonal; its diagonal vanishes where A(x, x) = λ.
    TransitionPattern pattern = sweep_transition_pattern(rbm, options.rule, options.inverse_temperature);
    pattern.diagonal() = (modified.diagonal().array() > 0.0).matrix();
    bound.ergodicity =
        analyse_ergodicity(PatternGraph(pattern)).ergodic() ? BoundErgodicity::checked : BoundErgodicity::refuted;
  } else if (options.single_precision) {
    UnitRulePairs<float> pairs(rbm, start, options);
    bound = run_pairs(pairs, options);
    bound.ergodicity = sweep_ergodicity(rbm, options.rule, options.inverse_temperature);
  } else {
    UnitRulePairs<double> pairs(rbm, start, options);
    bound = run_pairs(pairs, options);
    bound.ergodicity = sweep_ergodicity(rbm, options.rule, options.inverse_temperature);
  }
  if (!bound.bound_available()) {
    bound.total_variation = bound.total_variation_standard_error = VectorD();
    bound.wasserstein = bound.wasserstein_standard_error = VectorD();
  }
  return bound;
}

namespace {

template <typename Scalar>
LadderConvergenceBound run_ladder_pairs(const std::vector<Rbm>& rungs, const StartDistribution& start,
                                        const LadderBoundOptions& options) {
  LadderPairs<Scalar> pairs(rungs, start, options);
  LadderConvergenceBound result;
  result.bound = run_pairs(pairs, options.coupling);
  result.statistics = pairs.ladders().statistics();
  for (Eigen::Index pair = 0; pair < options.coupling.pairs; ++pair)
    result.unmet_rungs.push_back(pairs.ladders().unmet_rungs(pair));
  return result;
}

}  // namespace

LadderConvergenceBound ladder_convergence_bound(const std::vector<Rbm>& rungs, const StartDistribution& start,
                                                const LadderBoundOptions& options) {
  options.coupling.validate();
  LadderOptions{options.coupling.rule, options.swap_interval}.validate();
  require(rungs.size() >= 2, "ladder convergence bound: at least 2 rungs");
  for (const Rbm& rung : rungs) validate_start_distribution(start, rung);
  LadderConvergenceBound result = options.coupling.single_precision
                                      ? run_ladder_pairs<float>(rungs, start, options)
                                      : run_ladder_pairs<double>(rungs, start, options);
  result.sweeps_per_step = 2 * options.swap_interval;
  result.closed_links = result.statistics.closed_links();
  // The ladder's chain is ergodic when every rung's sweep is (the exchanges only permute states); decided exactly on
  // rungs small enough, from the rule's claim otherwise.
  result.bound.ergodicity = BoundErgodicity::checked;
  for (std::size_t k = 1; k < rungs.size(); ++k) {
    const BoundErgodicity rung = sweep_ergodicity(rungs[k], options.coupling.rule, 1.0);
    if (rung == BoundErgodicity::refuted || (rung == BoundErgodicity::unknown &&
                                             result.bound.ergodicity != BoundErgodicity::refuted))
      result.bound.ergodicity = rung;
    else if (rung == BoundErgodicity::claimed && result.bound.ergodicity == BoundErgodicity::checked)
      result.bound.ergodicity = rung;
  }
  if (!result.bound_available()) {
    result.bound.total_variation = result.bound.total_variation_standard_error = VectorD();
    result.bound.wasserstein = result.bound.wasserstein_standard_error = VectorD();
  }
  return result;
}

std::string ProposalMassCheck::failure() const {
  char text[640];
  std::snprintf(text, sizeof text,
                "the proposals' mean Z-hat gives log Z = %.2f, but %s gives %.2f, %.1f nats more (allowed %.1f): the "
                "proposals drawn carry about e^-%.0f of the model's mass and missed those a chain at equilibrium "
                "holds, so their meeting times say nothing of the tail the bound needs. Make the proposals closer to "
                "the model (--particles, --smc-steps, a denser trajectory), or run them along AIS's path "
                "(--temperature-ladder --base-rate, docs/algorithms/tempering-along-trajectory.md §10.8)",
                proposals_log_partition, reference.c_str(), reference_log_partition, gap(), allowed_gap, gap());
  return text;
}

ProposalMassCheck check_proposal_mass(const std::vector<double>& proposal_log_partitions,
                                      double reference_log_partition, std::string reference, double allowed_gap) {
  require(proposal_log_partitions.size() >= 2, "mass check: at least 2 proposals");
  require(!std::isnan(reference_log_partition), "mass check: the reference log Z is NaN");
  require(!std::isnan(allowed_gap) && allowed_gap >= 0.0, "mass check: the allowed gap must be at least 0 nats");
  ProposalMassCheck check;
  check.proposals_log_partition =
      log_mean_with_band(Eigen::Map<const VectorD>(proposal_log_partitions.data(),
                                                   static_cast<Eigen::Index>(proposal_log_partitions.size())))
          .log_mean;
  check.reference_log_partition = reference_log_partition;
  check.reference = std::move(reference);
  check.allowed_gap = allowed_gap;
  return check;
}

ProposalMassCheck check_path_proposal_mass(const ModelPath& path, const std::vector<double>& proposal_log_partitions,
                                           double allowed_gap, AisOptions ais) {
  const Rbm& last = path.knots().back();
  if (std::min(last.n_visible(), last.n_hidden()) <= max_exact_reference_units)
    return check_proposal_mass(proposal_log_partitions, exact_log_partition(last), "exact", allowed_gap);
  ais.base_visible_bias = path.knots().front().visible_bias;
  return check_proposal_mass(proposal_log_partitions, ais_log_partition(last, ais).log_partition,
                             "AIS (" + std::to_string(ais.particles) + " particles, " +
                                 std::to_string(ais.distributions) + " distributions)",
                             allowed_gap);
}

PathMetropolisBound path_metropolis_bound(const ModelPath& path, const PathMetropolisBoundOptions& options) {
  options.coupling.validate();
  require(!options.coupling.modified_sweep && options.coupling.inverse_temperature == 1.0,
          "particle Metropolis bound: the moves are the rule's sweeps of the path's models (no --beta, no modified:)");
  PathMetropolisBound result;
  PathMetropolisPairs pairs(path, options, result);
  result.bound = run_pairs(pairs, options.coupling);
  // Independent Metropolis–Hastings is ergodic when its proposal reaches every visible state: the first model's
  // units are independent with probabilities in (0, 1), and an ergodic rule's moves keep every state reachable.
  const bool claimed = std::visit([](const auto& concrete) { return concrete.claims_ergodicity(); },
                                  options.coupling.rule);
  result.bound.ergodicity = claimed ? BoundErgodicity::claimed : BoundErgodicity::unknown;
  if (result.bound.all_met() && std::isfinite(options.allowed_mass_gap)) {
    result.mass_check =
        check_path_proposal_mass(path, result.proposal_log_partitions, options.allowed_mass_gap, options.reference_ais);
    if (!result.mass_check.passed()) result.bound.withheld = result.mass_check.failure();
  }
  if (!result.bound.bound_available()) {
    result.bound.total_variation = result.bound.total_variation_standard_error = VectorD();
    result.bound.wasserstein = result.bound.wasserstein_standard_error = VectorD();
  }
  return result;
}

}  // namespace rbmix::analysis
