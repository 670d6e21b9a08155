#include "rbmix/analysis/exact_ladder.hpp"

#include <algorithm>
#include <cmath>

#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/sampling/tempering_ladder.hpp"

namespace rbmix::analysis {
namespace {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

VectorD kronecker(const std::vector<VectorD>& factors) {
  VectorD product = VectorD::Ones(1);
  for (const VectorD& factor : factors) {
    VectorD next(product.size() * factor.size());
    for (Eigen::Index high = 0; high < product.size(); ++high)
      next.segment(high * factor.size(), factor.size()) = product[high] * factor;
    product = std::move(next);
  }
  return product;
}

}  // namespace

ExactLadder::ExactLadder(const std::vector<Rbm>& rungs, const UnitRule& rule, Eigen::Index swap_interval)
    : rungs_(rungs), rule_(rule), swap_interval_(swap_interval) {
  require(rungs.size() >= 2, "exact ladder: at least 2 rungs");
  require(swap_interval >= 1, "exact ladder: the swap interval must be at least 1");
  const JointStateSpace space(rungs.front());
  require(space.n_visible() + space.n_hidden() <= max_dense_joint_units,
          "exact ladder: a rung's dense sweep matrix needs at most " + std::to_string(max_dense_joint_units) +
              " units");
  const auto units = static_cast<long long>(rungs.size()) * (space.n_visible() + space.n_hidden());
  require(units <= max_joint_units, "exact ladder: the rungs have " + std::to_string(units) +
                                        " units in all; the product space is enumerated for at most " +
                                        std::to_string(max_joint_units));
  n_visible_ = space.n_visible();
  rung_states_ = space.size();
  size_ = std::uint64_t{1} << units;
  strides_.assign(rungs.size(), 1);
  for (std::size_t k = rungs.size() - 1; k-- > 0;) strides_[k] = strides_[k + 1] * rung_states_;
  for (std::size_t k = 0; k < rungs.size(); ++k) {
    const Rbm& rbm = rungs[k];
    require(rbm.n_visible() == space.n_visible() && rbm.n_hidden() == space.n_hidden(), "exact ladder: one shape");
    sweeps_.push_back(k == 0 ? sweep_transition_matrix(rbm, UnitRule(GibbsRule{})) : sweep_transition_matrix(rbm, rule));
    VectorD energies(static_cast<Eigen::Index>(space.visible_states()));
    MatrixD conditional(static_cast<Eigen::Index>(space.visible_states()),
                        static_cast<Eigen::Index>(space.hidden_states()));
    for (std::uint64_t v = 0; v < space.visible_states(); ++v) {
      const VectorD visible = JointStateSpace::bits(v, space.n_visible());
      const VectorD inputs = rbm.hidden_bias + rbm.weights * visible;
      energies[static_cast<Eigen::Index>(v)] =
          -rbm.visible_bias.dot(visible) - softplus_array(inputs.array()).sum();
      for (std::uint64_t h = 0; h < space.hidden_states(); ++h) {
        double probability = 1.0;
        for (int unit = 0; unit < space.n_hidden(); ++unit) {
          const double one = 1.0 / (1.0 + std::exp(-inputs[unit]));
          probability *= JointStateSpace::bit(h, unit) != 0.0 ? one : 1.0 - one;
        }
        conditional(static_cast<Eigen::Index>(v), static_cast<Eigen::Index>(h)) = probability;
      }
    }
    free_energies_.push_back(std::move(energies));
    hidden_given_visible_.push_back(std::move(conditional));
  }
}

VectorD ExactLadder::product_of_rung_distributions() const {
  std::vector<VectorD> factors;
  for (const Rbm& rbm : rungs_) factors.push_back(JointStateSpace(rbm).stationary_distribution(rbm));
  return kronecker(factors);
}

VectorD ExactLadder::start_distribution(const StartDistribution& start) const {
  std::vector<VectorD> factors;
  for (const Rbm& rbm : rungs_) factors.push_back(exact_start_distribution(start, rbm, 1.0));
  return kronecker(factors);
}

void ExactLadder::sweep(VectorD& distribution, std::size_t rung) const {
  // Viewed as (high, x_k, low) with x_k the rung's coordinate: each block is rung_states × stride, row-major.
  const auto states = static_cast<Eigen::Index>(rung_states_);
  const auto low = static_cast<Eigen::Index>(stride(rung));
  const Eigen::Index block = states * low;
  for (Eigen::Index first = 0; first < distribution.size(); first += block) {
    Eigen::Map<RowMajorMatrix> view(distribution.data() + first, states, low);
    const RowMajorMatrix moved = sweeps_[rung].transpose() * view;
    view = moved;
  }
}

void ExactLadder::exchange(VectorD& distribution, std::size_t lower) const {
  const std::size_t upper = lower + 1;
  const bool redraw_hidden = exchange_redraws_hidden(rule_);
  const JointStateSpace space(rungs_.front());
  const auto hidden_states = static_cast<Eigen::Index>(space.hidden_states());
  VectorD moved = VectorD::Zero(distribution.size());
  for (std::uint64_t index = 0; index < size_; ++index) {
    const double mass = distribution[static_cast<Eigen::Index>(index)];
    if (mass == 0.0) continue;
    const std::uint64_t x = (index / stride(lower)) % rung_states_;
    const std::uint64_t y = (index / stride(upper)) % rung_states_;
    const auto vx = static_cast<Eigen::Index>(space.visible_part(x));
    const auto vy = static_cast<Eigen::Index>(space.visible_part(y));
    const double log_ratio = exchange_log_ratio(free_energies_[lower][vx], free_energies_[upper][vy],
                                                free_energies_[lower][vy], free_energies_[upper][vx]);
    const double accepted = std::exp(std::min(0.0, log_ratio));
    moved[static_cast<Eigen::Index>(index)] += mass * (1.0 - accepted);
    const std::uint64_t rest = index - x * stride(lower) - y * stride(upper);
    if (!redraw_hidden) {
      moved[static_cast<Eigen::Index>(rest + y * stride(lower) + x * stride(upper))] += mass * accepted;
      continue;
    }
    for (Eigen::Index hx = 0; hx < hidden_states; ++hx)
      for (Eigen::Index hy = 0; hy < hidden_states; ++hy) {
        const double probability =
            hidden_given_visible_[lower](vy, hx) * hidden_given_visible_[upper](vx, hy);
        const std::uint64_t new_lower = space.index(static_cast<std::uint64_t>(vy), static_cast<std::uint64_t>(hx));
        const std::uint64_t new_upper = space.index(static_cast<std::uint64_t>(vx), static_cast<std::uint64_t>(hy));
        moved[static_cast<Eigen::Index>(rest + new_lower * stride(lower) + new_upper * stride(upper))] +=
            mass * accepted * probability;
      }
  }
  distribution = std::move(moved);
}

VectorD ExactLadder::step(const VectorD& distribution) const {
  require(static_cast<std::uint64_t>(distribution.size()) == size_, "exact ladder: a distribution of another size");
  VectorD next = distribution;
  for (const std::size_t parity : {0U, 1U}) {
    for (Eigen::Index sweep_index = 0; sweep_index < swap_interval_; ++sweep_index)
      for (std::size_t rung = 0; rung < rungs_.size(); ++rung) sweep(next, rung);
    for (std::size_t lower = parity; lower + 1 < rungs_.size(); lower += 2) exchange(next, lower);
  }
  return next;
}

VectorD ExactLadder::total_variation(const VectorD& start, Eigen::Index steps) const {
  const VectorD target = product_of_rung_distributions();
  VectorD distances(steps + 1);
  VectorD current = start;
  for (Eigen::Index t = 0; t <= steps; ++t) {
    distances[t] = 0.5 * (current - target).cwiseAbs().sum();
    if (t < steps) current = step(current);
  }
  return distances;
}

VectorD ExactLadder::top_marginal(const VectorD& distribution) const {
  const auto states = static_cast<Eigen::Index>(rung_states_);
  const Eigen::Map<const RowMajorMatrix> view(distribution.data(), distribution.size() / states, states);
  return view.colwise().sum().transpose();
}

}  // namespace rbmix::analysis
