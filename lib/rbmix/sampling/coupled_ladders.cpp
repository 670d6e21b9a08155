#include "rbmix/sampling/coupled_ladders.hpp"

#include <algorithm>
#include <cmath>

#include "rbmix/core/error.hpp"

namespace rbmix {

template <typename Scalar>
CoupledLadders<Scalar>::CoupledLadders(const std::vector<Rbm>& rungs, Eigen::Index pairs, LadderOptions options,
                                       Eigen::Index maximal_coupling_distance, std::uint64_t seed)
    : pairs_(pairs), options_(std::move(options)) {
  options_.validate();
  require(rungs.size() >= 2, "coupled ladders: at least 2 rungs, got " + std::to_string(rungs.size()));
  require(pairs >= 1, "coupled ladders: at least 1 pair");
  require(rungs.front().weights.isZero(), "coupled ladders: rung 0 must have no couplings");
  for (std::size_t k = 0; k < rungs.size(); ++k) {
    models_.push_back(rungs[k].cast<Scalar>());
    chains_.emplace_back(pairs, rungs[k].n_visible(), rungs[k].n_hidden(), maximal_coupling_distance, seed,
                         static_cast<std::uint64_t>(k) * pairs);
  }
  for (Eigen::Index pair = 0; pair < pairs; ++pair)
    exchange_streams_.emplace_back(seed, static_cast<std::uint64_t>(pair), StreamDomain::tempering);
  statistics_.attempted.assign(rungs.size() - 1, 0);
  statistics_.accepted.assign(rungs.size() - 1, 0);
}

template <typename Scalar>
void CoupledLadders<Scalar>::sweep_every_rung(bool coupled) {
  // Rung 0 has no couplings: a Gibbs sweep draws it exactly, and with shared uniforms identically in both ladders.
  const UnitRule gibbs = GibbsRule{};
  for (std::size_t k = 0; k < models_.size(); ++k) {
    const UnitRule& rule = k == 0 ? gibbs : options_.rule;
    if (coupled)
      chains_[k].coupled_sweep(models_[k], rule);
    else
      chains_[k].sweep_first(models_[k], rule);
  }
}

template <typename Scalar>
void CoupledLadders<Scalar>::exchange(int parity, bool coupled) {
  const bool redraw_hidden = exchange_redraws_hidden(options_.rule);
  constexpr CoupledChain first = CoupledChain::first;
  constexpr CoupledChain second = CoupledChain::second;
  for (std::size_t lower = static_cast<std::size_t>(parity); lower + 1 < models_.size(); lower += 2) {
    const std::size_t upper = lower + 1;
    CoupledChains<Scalar>& x = chains_[lower];
    CoupledChains<Scalar>& y = chains_[upper];
    const VectorD first_ratios =
        exchange_log_ratios(models_[lower], models_[upper], x.visible(first), y.visible(first), first_inputs_);
    VectorD second_ratios;
    if (coupled)
      second_ratios =
          exchange_log_ratios(models_[lower], models_[upper], x.visible(second), y.visible(second), second_inputs_);
    for (Eigen::Index pair = 0; pair < pairs_; ++pair) {
      const double uniform = exchange_streams_[static_cast<std::size_t>(pair)].uniform();
      const bool first_exchanges = uniform < std::exp(std::min(0.0, first_ratios[pair]));
      ++statistics_.attempted[lower];
      if (first_exchanges) ++statistics_.accepted[lower];
      bool second_exchanges = false;
      if (coupled) {
        // Ladders that agree on both rungs of the link decide alike, whatever the rounding of the two products.
        const bool agree = x.visible(first).row(pair) == x.visible(second).row(pair) &&
                           y.visible(first).row(pair) == y.visible(second).row(pair);
        second_exchanges = agree ? first_exchanges : uniform < std::exp(std::min(0.0, second_ratios[pair]));
      }
      const auto swap_rows = [&](CoupledChain chain, const ExchangeInputs<Scalar>& inputs) {
        x.visible(chain).row(pair).swap(y.visible(chain).row(pair));
        x.hidden(chain).row(pair).swap(y.hidden(chain).row(pair));
        return &inputs;
      };
      const ExchangeInputs<Scalar>* first_moved = first_exchanges ? swap_rows(first, first_inputs_) : nullptr;
      const ExchangeInputs<Scalar>* second_moved = second_exchanges ? swap_rows(second, second_inputs_) : nullptr;
      if (!redraw_hidden) continue;
      // An exchanged replica's hidden layer is redrawn exactly from p(h | v); two exchanged replicas share uniforms,
      // so equal states stay equal.
      for (const auto& [rungs, inputs_of] :
           {std::pair{&x, &ExchangeInputs<Scalar>::cross_lower}, std::pair{&y, &ExchangeInputs<Scalar>::cross_upper}}) {
        CoupledChains<Scalar>& rung = *rungs;
        RandomStream& stream = rung.streams()[static_cast<std::size_t>(pair)];
        if (first_moved && second_moved) {
          RandomStream shared = stream;
          redraw_hidden_row(first_moved->*inputs_of, pair, rung.hidden(first), shared);
          redraw_hidden_row(second_moved->*inputs_of, pair, rung.hidden(second), stream);
        } else if (first_moved) {
          redraw_hidden_row(first_moved->*inputs_of, pair, rung.hidden(first), stream);
        } else if (second_moved) {
          redraw_hidden_row(second_moved->*inputs_of, pair, rung.hidden(second), stream);
        }
      }
    }
  }
}

template <typename Scalar>
void CoupledLadders<Scalar>::step_first() {
  for (const int parity : {0, 1}) {
    for (Eigen::Index sweep = 0; sweep < options_.swap_interval; ++sweep) sweep_every_rung(false);
    exchange(parity, false);
  }
  ++statistics_.steps;
}

template <typename Scalar>
void CoupledLadders<Scalar>::coupled_step() {
  for (const int parity : {0, 1}) {
    for (Eigen::Index sweep = 0; sweep < options_.swap_interval; ++sweep) sweep_every_rung(true);
    exchange(parity, true);
  }
  ++statistics_.steps;
}

template <typename Scalar>
Eigen::Index CoupledLadders<Scalar>::distance(Eigen::Index pair) const {
  Eigen::Index total = 0;
  for (const auto& rung : chains_) total += rung.distance(pair);
  return total;
}

template <typename Scalar>
Eigen::Index CoupledLadders<Scalar>::unmet_rungs(Eigen::Index pair) const {
  return std::count_if(chains_.begin(), chains_.end(), [&](const auto& rung) { return rung.distance(pair) != 0; });
}

template class CoupledLadders<float>;
template class CoupledLadders<double>;

}  // namespace rbmix
