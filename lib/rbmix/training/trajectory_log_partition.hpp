#pragma once
// log Z along a sequence of models, the training's own updates (docs/algorithms/log-partition-along-training.md):
// sequential Monte Carlo whose annealing path is the parameter sequence θ_0, θ_1, … itself.
//
// Particles carry visible states v and log-weights. At each step θ → θ′:
//   reweight    log w += log p*_θ′(v) − log p*_θ(v) = F_θ(v) − F_θ′(v)   (p* the unnormalised marginal e^{−F};
//               log p*_θ(v) is kept from when v was drawn, so no copy of θ is kept);
//   resample    within a group, systematically, when its effective sample size (Σw)²/Σw² falls below
//               resampling_threshold × its particles; the group's log mean w is banked first and its weights reset;
//   move        sweeps_per_update transitions that leave p_θ′(v) invariant: h ~ p_θ′(h | v) by Gibbs, then the
//               visible layer by the options' unit rule (as AIS's transition, ais.hpp: the weights are those of the
//               marginal, so the chain must be Markov in v, which a fresh Gibbs draw of h makes it for every rule).
// A group's Ẑ_g = Z_start · Π (banked means) · mean w is unbiased for Z_θ at every step (Del Moral 2004; the
// resampling keeps E[Ẑ_g] because it draws ancestors in proportion to the weights). The groups are independent
// (their own particles, streams and resampling), so the estimate is log mean_g Ẑ_g. Its band holds both that of AIS
// (ais.hpp: log(mean ± 3 standard errors of the mean over groups)), right while the Ẑ_g are near normal, and a
// lognormal one from the spread of the log Ẑ_g, right once many resamplings of small groups have made them
// heavy-tailed and their mean falls below Z by more than its standard error shows.
//
// The start: the model without couplings (W = 0, the first model's biases), whose log Z = Σ softplus(b) +
// Σ softplus(c) is exact and whose visible units are independent, so the particles are exact draws. When the first
// model has couplings, initial_bridge_steps steps of the same sequential Monte Carlo anneal its W from 0 (W_k = k/K
// W, the biases fixed) before the first update.
//
// Particle p draws from RandomStream(seed, p); group g resamples from RandomStream(seed, g, resampling domain): the
// numbers do not depend on the thread count. The sweeps run in float or double (single_precision); the reweighting
// always in double, from the model's double parameters, because the increments are differences of free energies of
// nearly equal models.
#include <cstdint>
#include <memory>
#include <string>

#include "rbmix/core/types.hpp"
#include "rbmix/model/rbm.hpp"
#include "rbmix/sampling/unit_rule.hpp"
#include "rbmix/training/binary_archive.hpp"

namespace rbmix {

// Steps of the bridge from W = 0 to the first model's W (training starts at W ~ N(0, 0.01²)). The variance of one
// step's log-weight increment falls as 1/K², so K steps together add about 1/K of the variance of a single jump.
inline constexpr int initial_bridge_steps = 100;

// log Z of a model without couplings (W = 0): its units are independent, Z = Π (1 + e^{b_j}) Π (1 + e^{c_i}).
double independent_log_partition(const Rbm& independent);

struct TrajectoryLogPartitionOptions {
  Eigen::Index particles = 100;
  // Independent particle groups: at least 2 for the band (one group has none, its band is (−∞, ∞)); particles must be
  // a multiple.
  Eigen::Index groups = 10;
  double resampling_threshold = 0.3;  // resample a group when ESS < threshold × its particles (fastrbm's 0.3)
  int sweeps_per_update = 1;
  UnitRule rule = GibbsRule{};  // the visible layer's operator
  bool single_precision = false;
  std::uint64_t seed = 1;

  bool is_valid(std::string* why) const;
};

// The estimate at the current model.
struct TrackedLogPartition {
  double log_partition = 0.0;  // log mean_g Ẑ_g
  // The band: the union of log(mean ± 3 se), whose lower end is −∞ where mean − 3 se ≤ 0, and the lognormal band
  // m + s²/2 ± 3 standard errors of the log Ẑ_g (docs/algorithms/log-partition-along-training.md §11.3).
  double lower = 0.0;
  double upper = 0.0;
  double relative_standard_error = 0.0;  // se / mean of the Ẑ_g: the scale of (mean − Z)/Z where they are near normal
  double smallest_effective_sample_size = 0.0;  // over the groups, of the current weights
  std::int64_t resamplings = 0;                 // over all groups, since the start
};

class TrajectoryLogPartition;

// Anneals `particles` from `from` to `to` along the straight line between them (model_path.hpp: interpolate), the
// last step `to` to the bit, in n = ⌈sd(to_free_energies − from_free_energies) / step_size⌉ steps (at least 1): the
// free energies are those of some reference rows under the two models, whose spread of change stands in for that of
// one step's log-weight increments over the particles (docs/algorithms/log-partition-along-training.md §11.9). The
// schedule depends on the path and the rows alone, never on the particles, so each group's Ẑ stays unbiased.
// Returns n.
std::int64_t anneal_in_sized_steps(TrajectoryLogPartition& particles, const Rbm& from, const Rbm& to,
                                   const VectorD& from_free_energies, const VectorD& to_free_energies,
                                   double step_size);

class TrajectoryLogPartition {
 public:
  // Starts at `first`: the exact independent model, then the bridge to `first` (see above). Throws InputError for
  // invalid options or a model that does not validate.
  TrajectoryLogPartition(const Rbm& first, const TrajectoryLogPartitionOptions& options);
  ~TrajectoryLogPartition();
  // A copy carries the particles, weights and streams: it continues exactly as the original would.
  TrajectoryLogPartition(const TrajectoryLogPartition& other);
  TrajectoryLogPartition& operator=(const TrajectoryLogPartition& other);
  TrajectoryLogPartition(TrajectoryLogPartition&&) noexcept;
  TrajectoryLogPartition& operator=(TrajectoryLogPartition&&) noexcept;

  // One step of the sequence: from the current model to `next` (same shapes, finite).
  void advance(const Rbm& next);
  TrackedLogPartition estimate() const;
  // One particle's visible state, drawn in proportion to its share of the estimate mean_g Ẑ_g: particle i of group g
  // with probability e^{banked_g} w_i / Σ_{g′, j} e^{banked_g′} w_j, by inversion of `uniform` ∈ [0, 1). With the
  // estimate, this is the proposal of particle independent Metropolis–Hastings (particle_independent_metropolis.hpp).
  VectorD draw_visible(double uniform) const;
  const TrajectoryLogPartitionOptions& options() const;

  // The complete state (particles, weights, banked means, streams), so a resumed run continues bit
  // for bit. load refuses, naming `reader`'s file, a state of other options or shapes.
  void save(BinaryWriter& writer) const;
  void load(BinaryReader& reader);

  class Particles;  // in the sampling precision (trajectory_log_partition.cpp)

 private:
  std::unique_ptr<Particles> particles_;
};

}  // namespace rbmix
