#include "rbmix/sampling/tempering_ladder.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rbmix/core/error.hpp"

namespace rbmix {

template <typename Scalar>
void redraw_hidden_row(const Matrix<Scalar>& inputs, Eigen::Index row, Matrix<Scalar>& hidden, RandomStream& stream) {
  for (Eigen::Index unit = 0; unit < hidden.cols(); ++unit) {
    const double probability = 1.0 / (1.0 + std::exp(-static_cast<double>(inputs(row, unit))));
    hidden(row, unit) = stream.uniform() < probability ? Scalar(1) : Scalar(0);
  }
}

template <typename Scalar>
VectorD exchange_log_ratios(const BasicRbm<Scalar>& lower, const BasicRbm<Scalar>& upper,
                            const Matrix<Scalar>& lower_visible, const Matrix<Scalar>& upper_visible,
                            ExchangeInputs<Scalar>& inputs) {
  const Eigen::Index rows = lower_visible.rows();
  inputs.stacked_visible.resize(2 * rows, lower_visible.cols());
  inputs.stacked_visible.topRows(rows) = lower_visible;
  inputs.stacked_visible.bottomRows(rows) = upper_visible;
  lower.binary_layer_inputs(Layer::hidden, inputs.stacked_visible, inputs.stacked_lower);
  upper.binary_layer_inputs(Layer::hidden, inputs.stacked_visible, inputs.stacked_upper);
  // [F_lower(x); F_lower(y)] and [F_upper(x); F_upper(y)].
  const VectorD lower_free_energies =
      lower.template free_energy_from_hidden_inputs<double>(inputs.stacked_visible, inputs.stacked_lower);
  const VectorD upper_free_energies =
      upper.template free_energy_from_hidden_inputs<double>(inputs.stacked_visible, inputs.stacked_upper);
  inputs.own_lower = inputs.stacked_lower.topRows(rows);
  inputs.cross_lower = inputs.stacked_lower.bottomRows(rows);
  inputs.cross_upper = inputs.stacked_upper.topRows(rows);
  inputs.own_upper = inputs.stacked_upper.bottomRows(rows);
  const auto lower_of_x = lower_free_energies.head(rows), lower_of_y = lower_free_energies.tail(rows);
  const auto upper_of_x = upper_free_energies.head(rows), upper_of_y = upper_free_energies.tail(rows);
  VectorD log_ratios(lower_visible.rows());
  for (Eigen::Index r = 0; r < log_ratios.size(); ++r)
    log_ratios[r] = exchange_log_ratio(lower_of_x[r], upper_of_y[r], lower_of_y[r], upper_of_x[r]);
  return log_ratios;
}

template VectorD exchange_log_ratios(const BasicRbm<float>&, const BasicRbm<float>&, const Matrix<float>&,
                                     const Matrix<float>&, ExchangeInputs<float>&);
template VectorD exchange_log_ratios(const BasicRbm<double>&, const BasicRbm<double>&, const Matrix<double>&,
                                     const Matrix<double>&, ExchangeInputs<double>&);
template void redraw_hidden_row(const Matrix<float>&, Eigen::Index, Matrix<float>&, RandomStream&);
template void redraw_hidden_row(const Matrix<double>&, Eigen::Index, Matrix<double>&, RandomStream&);

bool exchange_redraws_hidden(const UnitRule& rule) { return !std::holds_alternative<GibbsRule>(rule); }

void LadderOptions::validate() const {
  require(swap_interval >= 1, "ladder: the sweeps between exchanges (--swap-interval) must be at least 1, got " +
                                  std::to_string(swap_interval));
}

VectorD LadderStatistics::acceptance() const {
  VectorD rates(static_cast<Eigen::Index>(attempted.size()));
  for (std::size_t link = 0; link < attempted.size(); ++link)
    rates[static_cast<Eigen::Index>(link)] =
        attempted[link] == 0 ? std::numeric_limits<double>::quiet_NaN()
                             : static_cast<double>(accepted[link]) / static_cast<double>(attempted[link]);
  return rates;
}

std::vector<Eigen::Index> LadderStatistics::closed_links() const {
  std::vector<Eigen::Index> closed;
  for (std::size_t link = 0; link < attempted.size(); ++link)
    if (attempted[link] > 0 && accepted[link] == 0) closed.push_back(static_cast<Eigen::Index>(link));
  return closed;
}

template <typename Scalar>
LadderChains<Scalar>::LadderChains(const std::vector<Rbm>& rungs, Eigen::Index ladders, LadderOptions options,
                                   std::uint64_t seed)
    : ladders_(ladders), options_(std::move(options)) {
  options_.validate();
  require(rungs.size() >= 2, "ladder: at least 2 rungs, got " + std::to_string(rungs.size()));
  require(ladders >= 1, "ladder: at least 1 ladder");
  require(rungs.front().weights.isZero(), "ladder: rung 0 must have no couplings, so that it is drawn exactly");
  const Eigen::Index n_visible = rungs.front().n_visible();
  const Eigen::Index n_hidden = rungs.front().n_hidden();
  for (std::size_t k = 0; k < rungs.size(); ++k) {
    require(rungs[k].n_visible() == n_visible && rungs[k].n_hidden() == n_hidden, "ladder: rungs of one shape");
    models_.push_back(rungs[k].cast<Scalar>());
    chains_.emplace_back(ladders, n_visible, n_hidden, seed, static_cast<std::uint64_t>(k) * ladders);
    labels_.emplace_back();
    for (Eigen::Index r = 0; r < ladders; ++r)
      labels_.back().push_back(static_cast<std::int32_t>(k * ladders + r));
  }
  for (Eigen::Index r = 0; r < ladders; ++r)
    exchange_streams_.emplace_back(seed, static_cast<std::uint64_t>(r), StreamDomain::tempering);
  next_hidden_inputs_.resize(rungs.size());
  next_hidden_inputs_current_.assign(rungs.size(), 0);
  heading_.assign(rungs.size() * static_cast<std::size_t>(ladders), 0);
  statistics_.attempted.assign(rungs.size() - 1, 0);
  statistics_.accepted.assign(rungs.size() - 1, 0);
  track_round_trips();
}

template <typename Scalar>
void LadderChains<Scalar>::sweep_every_rung() {
  // Rung 0 has no couplings: one Gibbs sweep draws it exactly, whatever its state.
  chains_.front().sweep(models_.front(), UnitRule(GibbsRule{}));
  for (std::size_t k = 1; k < models_.size(); ++k) {
    if (next_hidden_inputs_current_[k]) {
      chains_[k].sample_from_inputs(Layer::hidden, next_hidden_inputs_[k], options_.rule);
      chains_[k].update_visible(models_[k], options_.rule);
      next_hidden_inputs_current_[k] = 0;
    } else {
      chains_[k].sweep(models_[k], options_.rule);
    }
  }
  next_hidden_inputs_current_[0] = 0;
}

template <typename Scalar>
void LadderChains<Scalar>::exchange(int parity) {
  const bool redraw_hidden = exchange_redraws_hidden(options_.rule);
  for (std::size_t lower = static_cast<std::size_t>(parity); lower + 1 < models_.size(); lower += 2) {
    const std::size_t upper = lower + 1;
    BatchedChains<Scalar>& x = chains_[lower];
    BatchedChains<Scalar>& y = chains_[upper];
    const VectorD log_ratios = exchange_log_ratios(models_[lower], models_[upper], x.visible(), y.visible(), inputs_);
    // The next sweeps take these hidden inputs as they are: own for a replica that stays, cross for one that moved.
    Matrix<Scalar>& lower_next = next_hidden_inputs_[lower];
    Matrix<Scalar>& upper_next = next_hidden_inputs_[upper];
    lower_next = inputs_.own_lower;
    upper_next = inputs_.own_upper;
    for (Eigen::Index r = 0; r < ladders_; ++r) {
      ++statistics_.attempted[lower];
      const double uniform = exchange_streams_[static_cast<std::size_t>(r)].uniform();
      if (!(uniform < std::exp(std::min(0.0, log_ratios[r])))) continue;
      ++statistics_.accepted[lower];
      x.visible().row(r).swap(y.visible().row(r));
      x.hidden().row(r).swap(y.hidden().row(r));
      std::swap(labels_[lower][static_cast<std::size_t>(r)], labels_[upper][static_cast<std::size_t>(r)]);
      lower_next.row(r) = inputs_.cross_lower.row(r);
      upper_next.row(r) = inputs_.cross_upper.row(r);
      if (redraw_hidden) {
        redraw_hidden_row(lower_next, r, x.hidden(), x.streams()[static_cast<std::size_t>(r)]);
        redraw_hidden_row(upper_next, r, y.hidden(), y.streams()[static_cast<std::size_t>(r)]);
      }
    }
    next_hidden_inputs_current_[lower] = next_hidden_inputs_current_[upper] = 1;
  }
  track_round_trips();
}

template <typename Scalar>
void LadderChains<Scalar>::track_round_trips() {
  for (Eigen::Index r = 0; r < ladders_; ++r) {
    const auto bottom = static_cast<std::size_t>(labels_.front()[static_cast<std::size_t>(r)]);
    if (heading_[bottom] < 0) ++statistics_.round_trips;
    heading_[bottom] = 1;
    const auto top = static_cast<std::size_t>(labels_.back()[static_cast<std::size_t>(r)]);
    if (heading_[top] > 0) heading_[top] = -1;
  }
}

template <typename Scalar>
void LadderChains<Scalar>::step() {
  for (const int parity : {0, 1}) {
    for (Eigen::Index sweep = 0; sweep < options_.swap_interval; ++sweep) sweep_every_rung();
    exchange(parity);
  }
  ++statistics_.steps;
}

template <typename Scalar>
double LadderChains<Scalar>::products_per_step(Eigen::Index rungs, Eigen::Index swap_interval) {
  // Sweeps: two products per rung and sweep. Exchanges: four per link, of which two are the next sweep's hidden
  // products, so two per link more; the links of both parities are rungs − 1.
  return 2.0 * static_cast<double>(rungs) * 2.0 * static_cast<double>(swap_interval) +
         2.0 * static_cast<double>(rungs - 1);
}

template class LadderChains<float>;
template class LadderChains<double>;

void LadderPlacementOptions::validate(const ModelPath& path) const {
  require(target_acceptance > 0.0 && target_acceptance < 1.0,
          "ladder placement: the target acceptance must lie in (0, 1), got " + std::to_string(target_acceptance));
  require(candidates >= path.segments(), "ladder placement: at least one candidate per segment of the path (" +
                                             std::to_string(path.segments()) + "), got " +
                                             std::to_string(candidates));
  require(chains >= 2, "ladder placement: at least 2 annealing chains, got " + std::to_string(chains));
  require(sweeps_per_candidate >= 1, "ladder placement: at least 1 sweep per candidate");
}

std::vector<Rbm> ladder_rungs(const ModelPath& path, const std::vector<double>& positions) {
  std::vector<Rbm> rungs;
  rungs.reserve(positions.size());
  for (const double position : positions) rungs.push_back(path.at(position));
  return rungs;
}

namespace {

template <typename Scalar>
PlacedLadder place_rungs_in(const ModelPath& path, const LadderPlacementOptions& options) {
  const std::vector<double> positions = path.evenly_spaced_positions(options.candidates);

  // Anneal: exact at θ_0, then sweeps at each candidate in turn; keep the visible states at every candidate.
  const auto count = positions.size();
  std::vector<BasicRbm<Scalar>> models;
  std::vector<Matrix<Scalar>> states;
  models.reserve(count);
  states.reserve(count);
  // Streams far above any ladder's (rung k of R ladders draws from stream k·R + r), so that a placement and the
  // ladder it places, run with one seed, draw independent numbers.
  constexpr std::uint64_t placement_streams = std::uint64_t{1} << 40;
  BatchedChains<Scalar> chains(options.chains, path.n_visible(), path.n_hidden(), options.seed, placement_streams);
  for (std::size_t candidate = 0; candidate < count; ++candidate) {
    models.push_back(path.at(positions[candidate]).cast<Scalar>());
    if (candidate == 0) {
      chains.sweep(models.back(), UnitRule(GibbsRule{}));
    } else {
      for (Eigen::Index sweep = 0; sweep < options.sweeps_per_candidate; ++sweep)
        chains.sweep(models.back(), options.rule);
    }
    states.push_back(chains.visible());
  }

  // Free energies F_a(states at b), chain r at a paired with chain r + 1 at b.
  Matrix<Scalar> inputs;
  const auto energies = [&](std::size_t model, const Matrix<Scalar>& visible) {
    models[model].binary_layer_inputs(Layer::hidden, visible, inputs);
    return VectorD(models[model].template free_energy_from_hidden_inputs<double>(visible, inputs));
  };
  std::vector<VectorD> own(count);
  for (std::size_t candidate = 0; candidate < count; ++candidate) own[candidate] = energies(candidate, states[candidate]);
  const Eigen::Index chains_count = options.chains;
  const auto acceptance = [&](std::size_t lower, std::size_t upper) {
    // Row r of the shifted matrix is chain r + 1's state at `upper`.
    Matrix<Scalar> shifted(chains_count, path.n_visible());
    VectorD shifted_own(chains_count);
    for (Eigen::Index r = 0; r < chains_count; ++r) {
      shifted.row(r) = states[upper].row((r + 1) % chains_count);
      shifted_own[r] = own[upper][(r + 1) % chains_count];
    }
    const VectorD lower_of_y = energies(lower, shifted);
    const VectorD upper_of_x = energies(upper, states[lower]);
    double sum = 0.0;
    for (Eigen::Index r = 0; r < chains_count; ++r)
      sum += std::exp(std::min(0.0, exchange_log_ratio(own[lower][r], shifted_own[r], lower_of_y[r], upper_of_x[r])));
    return sum / static_cast<double>(chains_count);
  };

  PlacedLadder placed;
  placed.positions.push_back(positions.front());
  std::vector<double> estimates;
  std::size_t current = 0;
  while (current + 1 < count) {
    std::size_t chosen = current + 1;
    double chosen_acceptance = acceptance(current, chosen);
    for (std::size_t next = current + 2; next < count && chosen_acceptance >= options.target_acceptance; ++next) {
      const double estimate = acceptance(current, next);
      if (estimate < options.target_acceptance) break;
      chosen = next;
      chosen_acceptance = estimate;
    }
    placed.positions.push_back(positions[chosen]);
    estimates.push_back(chosen_acceptance);
    current = chosen;
  }
  placed.estimated_acceptance = Eigen::Map<VectorD>(estimates.data(), static_cast<Eigen::Index>(estimates.size()));
  return placed;
}

}  // namespace

PlacedLadder place_rungs(const ModelPath& path, const LadderPlacementOptions& options) {
  options.validate(path);
  return options.single_precision ? place_rungs_in<float>(path, options) : place_rungs_in<double>(path, options);
}

}  // namespace rbmix
