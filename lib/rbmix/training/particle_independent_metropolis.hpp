#pragma once
// Particle independent Metropolis–Hastings along a path of models (Andrieu, Doucet & Holenstein 2010, §2.4.1;
// docs/algorithms/tempering-along-trajectory.md §10.7). A proposal is one run of the sequential Monte Carlo of
// trajectory_log_partition.hpp along positions of a ModelPath, from its first model, which has no couplings and is
// drawn exactly, to its last: the run's estimate Ẑ of the last model's Z and one of its particles, drawn in proportion
// to its share of Ẑ (TrajectoryLogPartition::draw_visible). The chain holds (Ẑ, v) and accepts a proposal (Ẑ′, v′) with
// probability min(1, Ẑ′/Ẑ).
//
// Why its states are draws of the last model: E[Ẑ] = Z and E[Ẑ 1{v ∈ A}] = Z p(A) for the drawn particle (the
// sequential Monte Carlo's estimates of the unnormalised measure are unbiased, adaptive resampling included, since
// every step is unbiased given the past; Del Moral 2004). So the chain is independent Metropolis–Hastings on the
// run's whole extended space, with proposal q and target q·Ẑ/Z, whose marginal of v is p, however few the particles.
// The closer Ẑ stays to Z, the more proposals it accepts.
//
// Coupled chains (Middleton, Deligiannidis, Doucet & Jacob 2019): two chains share every proposal and its uniform.
// The chain whose Ẑ is lower accepts whenever the other does, so the two meet the first time the one with the higher
// Ẑ accepts, and move as one after.
#include <cstdint>
#include <functional>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/sampling/model_path.hpp"
#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix {

struct PathMetropolisOptions {
  // The defaults are the settings that met on the 5-epoch MNIST model: log Ẑ spread by 1.6–2.2 nats there, where
  // 400 steps resampled below 0.3 N spread by 4–8 (docs/algorithms/tempering-along-trajectory.md §10.7).
  Eigen::Index particles = 100;
  Eigen::Index steps = 800;  // positions along the path, evenly per segment (ModelPath::evenly_spaced_positions)
  int sweeps_per_step = 4;   // moves under each position's model
  double resampling_threshold = 0.7;  // resample when the effective sample size falls below this share
  UnitRule rule = GibbsRule{};  // the visible layer's operator in the moves
  bool single_precision = false;
  // Throws InputError naming the option: particles ≥ 1, steps ≥ the path's segments, sweeps ≥ 1, threshold in [0, 1].
  void validate(const ModelPath& path) const;
};

// One state of the chain: a proposal's log Ẑ and its drawn particle's visible state.
struct PathMetropolisState {
  double log_partition = 0.0;
  VectorD visible;
  bool operator==(const PathMetropolisState&) const = default;
};

// Proposals along `path` (which must outlive them), every one drawn from a stream the caller passes, so that two
// coupled chains can share them.
class PathProposals {
 public:
  PathProposals(const ModelPath& path, PathMetropolisOptions options);

  // One run of the sequential Monte Carlo, seeded from `stream`, and the particle a further uniform of it chooses.
  PathMetropolisState draw(RandomStream& stream) const;
  // Accepts `proposal` into `state` when log u < log Ẑ′ − log Ẑ; returns whether.
  static bool accept(PathMetropolisState& state, const PathMetropolisState& proposal, double uniform);

  const std::vector<double>& positions() const { return positions_; }
  const PathMetropolisOptions& options() const { return options_; }

 private:
  const ModelPath& path_;
  PathMetropolisOptions options_;
  std::vector<double> positions_;
};

// What independent chains did (sample_path_metropolis).
struct PathMetropolisSampling {
  std::int64_t accepted = 0;
  std::int64_t proposals_after_start = 0;
  std::vector<double> proposal_log_partitions;  // every proposal's log Ẑ, chain by chain, starts included
};

// `chains` independent chains, chain c drawing from RandomStream(seed, c, tempering): each starts at a proposal,
// takes `burn_in` proposals unrecorded, then hands its visible state to record(t, c, v) after each of `samples` more.
// progress(done) follows every proposal, `done` counting all chains' proposals.
PathMetropolisSampling sample_path_metropolis(
    const PathProposals& proposals, Eigen::Index chains, Eigen::Index burn_in, Eigen::Index samples,
    std::uint64_t seed, const std::function<void(Eigen::Index sample, Eigen::Index chain, const VectorD& visible)>& record,
    const std::function<void(Eigen::Index done)>& progress = {});

}  // namespace rbmix
