#pragma once
// CoupledLadders: R pairs of tempering ladders (tempering_ladder.hpp) X, Y on the same rungs, coupled so that a pair
// of ladders can meet, every rung equal, and then moves as one (Jacob, O'Leary & Atchadé 2020, §4; docs/algorithms/
// tempering-along-trajectory.md §4). Rung k of both ladders is one CoupledChains (coupled_chains.hpp): every sweep is
// the hybrid coupling of the rule, and rung 0, which has no couplings, is drawn by shared uniforms, so the two
// ladders' rung 0 agree after one sweep. Each exchange is decided for both ladders by one uniform u: X exchanges if
// u < a_X, Y if u < a_Y, so ladders that agree on both rungs of a link decide alike. A state the two ladders share
// climbs through exchanges; the unshared sink towards rung 0, where they are erased.
// The ladder step is LadderChains's: `swap_interval` sweeps, even links, `swap_interval` sweeps, odd links. The
// interface is that of an L-lag coupling's pairs (convergence_bound.hpp): the first ladders step alone for the lag,
// then both step coupled; distance(pair) counts the units of (v, h), over every rung, in which the two ladders
// differ, 0 once they have met.
// Pair b's rung k draws from RandomStream(seed, k·R + b) and its exchanges from RandomStream(seed, b, tempering).
#include <cstdint>
#include <vector>

#include "rbmix/sampling/coupled_chains.hpp"
#include "rbmix/sampling/tempering_ladder.hpp"

namespace rbmix {

template <typename Scalar>
class CoupledLadders {
 public:
  CoupledLadders(const std::vector<Rbm>& rungs, Eigen::Index pairs, LadderOptions options,
                 Eigen::Index maximal_coupling_distance, std::uint64_t seed);

  Eigen::Index rungs() const { return static_cast<Eigen::Index>(models_.size()); }
  Eigen::Index pairs() const { return pairs_; }
  CoupledChains<Scalar>& rung(Eigen::Index k) { return chains_[static_cast<std::size_t>(k)]; }
  const CoupledChains<Scalar>& rung(Eigen::Index k) const { return chains_[static_cast<std::size_t>(k)]; }
  // The exchanges of the first ladders (X), whose law is a single ladder's.
  const LadderStatistics& statistics() const { return statistics_; }

  // One ladder step of the first ladders alone (the lag).
  void step_first();
  // One coupled ladder step of both.
  void coupled_step();
  Eigen::Index distance(Eigen::Index pair) const;
  // The rungs at which the pair's ladders differ.
  Eigen::Index unmet_rungs(Eigen::Index pair) const;

 private:
  void sweep_every_rung(bool coupled);
  void exchange(int parity, bool coupled);

  std::vector<BasicRbm<Scalar>> models_;
  Eigen::Index pairs_;
  LadderOptions options_;
  std::vector<CoupledChains<Scalar>> chains_;
  std::vector<RandomStream> exchange_streams_;
  ExchangeInputs<Scalar> first_inputs_, second_inputs_;
  LadderStatistics statistics_;
};

extern template class CoupledLadders<float>;
extern template class CoupledLadders<double>;

}  // namespace rbmix
