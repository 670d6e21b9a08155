#pragma once
// ModelPath: a path of RBMs through knots θ₀, θ₁, …, θ_K, linear between consecutive knots
// (docs/algorithms/tempering-along-trajectory.md §10.1). A position s ∈ [0, K] names the model
//   θ(s) = (1 − f) θ_i + f θ_{i+1},   i = ⌊s⌋, f = s − i   (θ(K) = θ_K),
// so a ladder's rungs are positions on the path, and the rungs of tempering along the training trajectory and of a
// temperature ladder come from the same code:
//   - trajectory_path (rbmix/training/trajectory_file.hpp): θ₀ the model without couplings (W = 0, b = logit of the training rows' visible means), then
//     the models saved along training in the order of their updates (Béreux et al. 2025);
//   - temperature_path: θ₀ = 0 (the uniform distribution, β = 0) and θ₁ the model: θ(β) = βθ, p_{θ(β)} ∝ e^{−βE};
//     given base visible biases b_A, θ₀ = (W = 0, b_A, c = 0) instead, and θ(β) is AIS's path of Salakhutdinov &
//     Murray (2008): the geometric path from the base-rate model p_A to p_θ (docs/algorithms/estimation.md §5.2).
// The first knot of either has no couplings, so it is sampled exactly by one Gibbs sweep from any state.
#include <string>
#include <vector>

#include "rbmix/model/rbm.hpp"

namespace rbmix {

// (1 − fraction) θ_from + fraction θ_to, parameter by parameter (shapes equal).
Rbm interpolate(const Rbm& from, const Rbm& to, double fraction);

class ModelPath {
 public:
  // `knots` ≥ 2 models of one shape, the first without couplings (W = 0); `labels` names each knot in reports
  // ("independent", "update 120", …). Throws InputError otherwise.
  ModelPath(std::vector<Rbm> knots, std::vector<std::string> labels);

  Eigen::Index segments() const { return static_cast<Eigen::Index>(knots_.size()) - 1; }  // K
  const std::vector<Rbm>& knots() const { return knots_; }
  const std::vector<std::string>& labels() const { return labels_; }
  Eigen::Index n_visible() const { return knots_.front().n_visible(); }
  Eigen::Index n_hidden() const { return knots_.front().n_hidden(); }

  // θ(s) for s ∈ [0, K]; InputError outside.
  Rbm at(double position) const;
  // Positions spread evenly over each segment, ⌈count / K⌉ per segment from its start, then the path's end K:
  // the candidates of a ladder's placement, the steps of a sequential Monte Carlo proposal.
  std::vector<double> evenly_spaced_positions(Eigen::Index count) const;
  // "update 120", or "update 120 + 0.25 of the way to update 240" between knots.
  std::string describe(double position) const;

 private:
  std::vector<Rbm> knots_;
  std::vector<std::string> labels_;
};

// The path β ↦ βθ from the uniform distribution (β = 0) to `model` (β = 1); with `base_visible_bias` (of length
// n_visible, finite), from the independent model with those visible biases and no hidden biases, as AIS starts.
ModelPath temperature_path(const Rbm& model, const VectorD& base_visible_bias = VectorD());

}  // namespace rbmix
