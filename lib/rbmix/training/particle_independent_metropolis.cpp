#include "rbmix/training/particle_independent_metropolis.hpp"

#include <cmath>

#include "rbmix/core/error.hpp"
#include "rbmix/training/trajectory_log_partition.hpp"

namespace rbmix {

void PathMetropolisOptions::validate(const ModelPath& path) const {
  require(particles >= 1, "particle Metropolis: at least 1 particle, got " + std::to_string(particles));
  require(steps >= path.segments(), "particle Metropolis: at least one step per segment of the path (" +
                                        std::to_string(path.segments()) + "), got " + std::to_string(steps));
  require(sweeps_per_step >= 1,
          "particle Metropolis: at least 1 sweep per step, got " + std::to_string(sweeps_per_step));
  require(resampling_threshold >= 0.0 && resampling_threshold <= 1.0,
          "particle Metropolis: the resampling threshold must lie in [0, 1], got " +
              std::to_string(resampling_threshold));
}

PathProposals::PathProposals(const ModelPath& path, PathMetropolisOptions options)
    : path_(path), options_(std::move(options)) {
  options_.validate(path_);
  positions_ = path_.evenly_spaced_positions(options_.steps);
}

PathMetropolisState PathProposals::draw(RandomStream& stream) const {
  TrajectoryLogPartitionOptions smc;
  smc.particles = options_.particles;
  smc.groups = 1;
  smc.resampling_threshold = options_.resampling_threshold;
  smc.sweeps_per_update = options_.sweeps_per_step;
  smc.rule = options_.rule;
  smc.single_precision = options_.single_precision;
  smc.seed = stream();
  // positions_[0] = 0, the path's first model: no couplings, so the particles start as exact draws of it.
  TrajectoryLogPartition particles(path_.at(positions_.front()), smc);
  for (std::size_t step = 1; step < positions_.size(); ++step) particles.advance(path_.at(positions_[step]));
  PathMetropolisState proposal;
  proposal.log_partition = particles.estimate().log_partition;
  proposal.visible = particles.draw_visible(stream.uniform());
  return proposal;
}

bool PathProposals::accept(PathMetropolisState& state, const PathMetropolisState& proposal, double uniform) {
  // log u < log Ẑ′ − log Ẑ, the min(1, Ẑ′/Ẑ) of independent Metropolis–Hastings with target q·Ẑ/Z.
  if (!(std::log(uniform) < proposal.log_partition - state.log_partition)) return false;
  state = proposal;
  return true;
}

PathMetropolisSampling sample_path_metropolis(
    const PathProposals& proposals, Eigen::Index chains, Eigen::Index burn_in, Eigen::Index samples,
    std::uint64_t seed, const std::function<void(Eigen::Index sample, Eigen::Index chain, const VectorD& visible)>& record,
    const std::function<void(Eigen::Index done)>& progress) {
  require(chains >= 1, "particle Metropolis: at least 1 chain, got " + std::to_string(chains));
  require(burn_in >= 0, "particle Metropolis: the burn-in must be at least 0 proposals, got " + std::to_string(burn_in));
  require(samples >= 1, "particle Metropolis: at least 1 sample per chain, got " + std::to_string(samples));
  PathMetropolisSampling result;
  const Eigen::Index per_chain = 1 + burn_in + samples;
  for (Eigen::Index chain = 0; chain < chains; ++chain) {
    RandomStream stream(seed, static_cast<std::uint64_t>(chain), StreamDomain::tempering);
    PathMetropolisState state = proposals.draw(stream);
    result.proposal_log_partitions.push_back(state.log_partition);
    for (Eigen::Index step = 1; step < per_chain; ++step) {
      const PathMetropolisState proposal = proposals.draw(stream);
      result.proposal_log_partitions.push_back(proposal.log_partition);
      result.accepted += PathProposals::accept(state, proposal, stream.uniform());
      ++result.proposals_after_start;
      if (const Eigen::Index sample = step - 1 - burn_in; sample >= 0) record(sample, chain, state.visible);
      if (progress) progress(chain * per_chain + step + 1);
    }
  }
  return result;
}

}  // namespace rbmix
