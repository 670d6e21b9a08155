#pragma once
// CoupledChains: R pairs of chains (X, Y) of one operator, coupled so that a pair meets and then moves as one
// (docs/algorithms/convergence-bounds.md §6.8, the couplings of Biswas, Jacob & Vanetti 2019). Pair b is row b of the
// first and the second chains' state matrices and draws every number from one stream, RandomStream(seed, first_stream +
// b), so its path depends on the seed and its index only: not on the thread count, the number of pairs or their order.
//
// A coupled layer update computes each chain's P(next = 1) for every unit of the layer with the unit rule (the
// kernel of unit_rule_kernel.hpp, the code every operator of rbmix runs), so each chain on its own steps exactly as
// the operator does, and couples the two layer conditionals, the product distributions P = Π p_k and Q = Π q_k:
//  - a pair whose joint states (v, h) differ in more than `maximal_coupling_distance` units shares one uniform per
//    unit, x_k = [u_k < p_k] and y_k = [u_k < q_k]: each unit's maximal coupling, which pulls a distant pair together;
//  - a closer pair draws from a maximal coupling of P and Q, which agrees with probability 1 − d_TV(P, Q), the most
//    any coupling can: units with p_k = q_k share their draw, and the units where the probabilities differ are
//    coupled by the rejection algorithm of Jacob, O'Leary & Atchadé 2020 (draw_coupled_layer below).
// Shared uniforms alone stall on dense models with large weights (a few differing units shift every input of the
// other layer), and the maximal coupling alone does not pull distant pairs together; the switch between them is a
// function of the pair's current states, so the pair stays a Markov chain whose two marginals are the operator's.
// Both couplings are faithful: a pair with equal states gets equal inputs (the second chain takes the first's row
// wherever the conditioning layers agree, so that no rounding of the product can tell them apart), hence p = q and
// equal draws, and a pair that has met stays met.
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "rbmix/sampling/batched_chains.hpp"

namespace rbmix {

// Every pair uses the maximal coupling, whatever its distance (the maximal coupling alone).
inline constexpr Eigen::Index always_maximal_coupling = std::numeric_limits<Eigen::Index>::max();
// No pair uses the maximal coupling: shared uniforms only.
inline constexpr Eigen::Index never_maximal_coupling = -1;

// log P(unit = state) for a unit with P(1) = probability, in double whatever the chains run in.
template <typename Scalar>
double log_bernoulli(Scalar probability, Scalar state) {
  const double p = static_cast<double>(probability);
  return state != Scalar(0) ? std::log(p) : std::log1p(-p);
}

// One layer of one pair: first ~ Π p_k, second ~ Π q_k, coupled. With `maximal` false every unit shares one
// uniform; with `maximal` true the draw is a maximal coupling of the two products. For it only the units D where p_k
// ≠ q_k matter: the others share their uniform (their draws agree), and on D the rejection algorithm runs — keep the
// first chain's x ~ P for the second chain with probability min(1, Q(x)/P(x)); otherwise draw y* ~ Q and a uniform
// u* until u*·Q(y*) > P(y*), and take y*. The second chain's units on D are then distributed as Q_D (the rejection
// step draws from the residual (Q − P)⁺), they are independent of the shared units, and the pair agrees with
// probability Σ min(P, Q) = 1 − d_TV(P, Q) (Jacob, O'Leary & Atchadé 2020, docs/algorithms/convergence-bounds.md §6.8).
// Uniforms for the acceptance tests are taken in (0, 1], so a probability of 0 is never accepted by a draw of exactly
// 0. `differing` is a workspace.
template <typename Scalar>
void draw_coupled_layer(const Scalar* first_probability, const Scalar* second_probability, Scalar* first,
                        Scalar* second, Eigen::Index units, bool maximal, RandomStream& stream,
                        std::vector<Eigen::Index>& differing) {
  for (Eigen::Index k = 0; k < units; ++k) {
    const Scalar u = stream.uniform_as<Scalar>();
    first[k] = u < first_probability[k] ? Scalar(1) : Scalar(0);
    second[k] = u < second_probability[k] ? Scalar(1) : Scalar(0);
  }
  if (!maximal) return;
  differing.clear();
  for (Eigen::Index k = 0; k < units; ++k)
    if (first_probability[k] != second_probability[k]) differing.push_back(k);
  if (differing.empty()) return;
  // log Q(x) − log P(x) of the first chain's draw, over D (the other units cancel).
  double log_ratio = 0.0;
  for (const Eigen::Index k : differing)
    log_ratio += log_bernoulli(second_probability[k], first[k]) - log_bernoulli(first_probability[k], first[k]);
  if (std::log1p(-stream.uniform()) <= log_ratio) {
    for (const Eigen::Index k : differing) second[k] = first[k];
    return;
  }
  for (;;) {
    double log_inverse_ratio = 0.0;  // log P(y*) − log Q(y*) over D
    for (const Eigen::Index k : differing) {
      second[k] = stream.uniform_as<Scalar>() < second_probability[k] ? Scalar(1) : Scalar(0);
      log_inverse_ratio +=
          log_bernoulli(first_probability[k], second[k]) - log_bernoulli(second_probability[k], second[k]);
    }
    if (std::log1p(-stream.uniform()) > log_inverse_ratio) return;
  }
}

enum class CoupledChain { first, second };

template <typename Scalar>
class CoupledChains {
 public:
  // `pairs` pairs, every state zero; pairs within `maximal_coupling_distance` units use the maximal coupling
  // (never_maximal_coupling and always_maximal_coupling select one coupling throughout).
  CoupledChains(Eigen::Index pairs, Eigen::Index n_visible, Eigen::Index n_hidden,
                Eigen::Index maximal_coupling_distance, std::uint64_t seed, std::uint64_t first_stream = 0);

  Eigen::Index pairs() const { return first_visible_.rows(); }
  Eigen::Index maximal_coupling_distance() const { return maximal_coupling_distance_; }
  Matrix<Scalar>& visible(CoupledChain chain) {
    return chain == CoupledChain::first ? first_visible_ : second_visible_;
  }
  Matrix<Scalar>& hidden(CoupledChain chain) { return chain == CoupledChain::first ? first_hidden_ : second_hidden_; }
  const Matrix<Scalar>& visible(CoupledChain chain) const {
    return chain == CoupledChain::first ? first_visible_ : second_visible_;
  }
  const Matrix<Scalar>& hidden(CoupledChain chain) const {
    return chain == CoupledChain::first ? first_hidden_ : second_hidden_;
  }
  // The pairs' streams, for a caller that draws their start states.
  std::vector<RandomStream>& streams() { return streams_; }

  // The number of units of (v, h) in which the pair's two chains differ; 0 once the pair has met.
  Eigen::Index distance(Eigen::Index pair) const;

  // The first chains alone by one sweep, from the pairs' streams (the lag of an L-lag coupling).
  template <typename Model, typename Rule>
  requires LayerModel<Model, Scalar>
  void sweep_first(const Model& rbm, const Rule& rule, Scalar inverse_temperature = Scalar(1)) {
    for (const Layer layer : {Layer::hidden, Layer::visible}) {
      rbm.binary_layer_inputs(layer, conditioning(layer, CoupledChain::first), first_inputs_, inverse_temperature);
      sample_with(rule, first_inputs_, updated(layer, CoupledChain::first));
    }
  }

  // Both chains of every pair by one coupled sweep: the hidden layer given v, then the visible layer given h.
  template <typename Model, KernelUnitRule Rule>
  requires LayerModel<Model, Scalar>
  void coupled_sweep(const Model& rbm, const Rule& rule, Scalar inverse_temperature = Scalar(1)) {
    for (const Layer layer : {Layer::hidden, Layer::visible}) {
      rbm.binary_layer_inputs(layer, conditioning(layer, CoupledChain::first), first_inputs_, inverse_temperature);
      rbm.binary_layer_inputs(layer, conditioning(layer, CoupledChain::second), second_inputs_, inverse_temperature);
      layer_probabilities(rule, Evaluation::exact, first_inputs_, updated(layer, CoupledChain::first),
                          first_probabilities_);
      share_equal_inputs(layer);
      layer_probabilities(rule, Evaluation::exact, second_inputs_, updated(layer, CoupledChain::second),
                          second_probabilities_);
      draw_coupled(layer);
    }
  }

 private:
  const Matrix<Scalar>& conditioning(Layer layer, CoupledChain chain) const {
    return layer == Layer::hidden ? visible(chain) : hidden(chain);
  }
  Matrix<Scalar>& updated(Layer layer, CoupledChain chain) {
    return layer == Layer::hidden ? hidden(chain) : visible(chain);
  }
  template <typename Rule>
  void sample_with(const Rule& rule, const Matrix<Scalar>& inputs, Matrix<Scalar>& state) {
    if constexpr (std::same_as<Rule, UnitRule>)
      std::visit([&](const auto& concrete) { sample_layer(concrete, inputs, state, streams_, workspaces_); }, rule);
    else
      sample_layer(rule, inputs, state, streams_, workspaces_);
  }
  // Copies the first chain's inputs into the second's for every pair whose conditioning layers are equal.
  void share_equal_inputs(Layer layer);
  // Draws the updated layer of every pair from the two chains' probabilities (draw_coupled_layer).
  void draw_coupled(Layer layer);

  Eigen::Index maximal_coupling_distance_;
  Matrix<Scalar> first_visible_, first_hidden_, second_visible_, second_hidden_;
  Matrix<Scalar> first_inputs_, second_inputs_;  // workspaces, kept between sweeps
  Matrix<Scalar> first_probabilities_, second_probabilities_;
  std::vector<LayerWorkspace<Scalar>> workspaces_;  // one per thread
  std::vector<RandomStream> streams_;
};

extern template class CoupledChains<float>;
extern template class CoupledChains<double>;

}  // namespace rbmix
