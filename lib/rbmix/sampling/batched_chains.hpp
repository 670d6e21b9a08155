#pragma once
// BatchedChains: B Markov chains on the joint states (v, h) of one RBM, advanced together. A layer update computes
// every unit's total input with one matrix product (BasicRbm::binary_layer_inputs: the states are 0/1), applies the
// unit rule element-wise with the unit's current state (the kernel of unit_rule_kernel.hpp, on blocks of whole chain
// rows), and draws u < P(next = 1) with u ∈ [0, 1) from the chain's own stream (eight chains' streams stepped side by
// side, stream_lanes.hpp), so outcomes the rule makes certain (P = 0 or 1) never depend on the draw. A sweep updates
// all hidden units given v, then all visible units given the new h: K = K_h K_v (docs/algorithms/operators.md §2).
// Chain b always draws from RandomStream(seed, first_stream + b): the same seed gives the same chains whatever the
// thread count. Inputs, decays and uniforms live in workspaces the chains keep (one per thread for the draws), so once
// the first sweep has sized them a sweep allocates nothing of its own (Eigen's product may still take packing buffers
// from the heap for large layers, and the binary product takes its index of the ones and its packed blocks per product,
// binary_product.hpp). Every entry point takes either UnitRule (the built-in rules, as named on the
// command line) or any concrete rule (unit_rule.hpp's ConcreteUnitRule, a user's own included): UnitRule is dispatched
// once per layer into the concrete template, so both run the same code.
#include <omp.h>

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <vector>

#include "rbmix/model/fixed_rbm.hpp"
#include "rbmix/model/rbm.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/random/stream_lanes.hpp"
#include "rbmix/sampling/unit_rule_kernel.hpp"

namespace rbmix {

// Layers smaller than this many units run on one thread: starting a thread team costs more than the work
// (measured: a 4-chain 16×16 sweep ran 13× slower with two threads than with one on a busy 2-core machine).
inline constexpr Eigen::Index parallel_layer_threshold = 16384;
// The kernel evaluates the probabilities of whole rows at a time, about this many units per block: a tiny layer's
// rows (16 units) are too short for the vectorised passes to pay for themselves one row at a time. The blocks
// depend on the layer's shape only, never on the thread count, so neither do the probabilities.
inline constexpr Eigen::Index sampling_block_units = 1024;

// What one thread works in while it updates a block of a layer: the block's decays e^{−|x|} (unit_rule_kernel.hpp)
// and its uniforms. Whoever draws keeps one per thread (BatchedChains does), so that once they have grown to the
// block size a sweep, whatever its rule, allocates nothing.
template <typename Scalar>
struct LayerWorkspace {
  DecayWorkspace<Scalar> decays;
  std::vector<Scalar> uniforms;
};

// states[k] = 1 if uniforms[k] < probabilities[k], else 0. The arrays do not overlap, so the loop vectorises into
// compares and masked moves: no branch on an outcome that is a coin flip, no conversion per draw.
template <typename Scalar>
void store_draws(const Scalar* __restrict uniforms, const Scalar* __restrict probabilities, Scalar* __restrict states,
                 Eigen::Index count) {
  for (Eigen::Index k = 0; k < count; ++k) states[k] = uniforms[k] < probabilities[k] ? Scalar(1) : Scalar(0);
}

// Draws rows first … first + rows − 1 of `state` given their probabilities of 1 (the same rows of `probabilities`,
// both row-major with `units` columns): each row's uniforms in the order of its units, from its own stream, the
// streams stepped side by side; `uniforms` is the workspace they are drawn into.
template <typename Scalar>
void draw_rows(const Scalar* probabilities, Scalar* states, RandomStream* streams, Eigen::Index rows,
               Eigen::Index units, std::vector<Scalar>& uniforms) {
  const Eigen::Index count = rows * units;
  uniforms.resize(static_cast<std::size_t>(count));
  draw_uniform_rows(streams, rows, units, uniforms.data());
  store_draws(uniforms.data(), probabilities, states, count);
}

// Calls block(first_row, block_rows, workspace) for blocks of whole rows of a rows × units layer, about
// sampling_block_units units each: on the calling thread for a small layer, split over the threads otherwise, each
// thread with its own of `workspaces` (which grows to the thread count). The blocks depend on the shape only.
template <typename Scalar, typename Block>
void for_each_row_block(Eigen::Index rows, Eigen::Index units, std::vector<LayerWorkspace<Scalar>>& workspaces,
                        const Block& block) {
  if (rows == 0 || units == 0) return;
  const Eigen::Index rows_per_block = std::max<Eigen::Index>(1, sampling_block_units / units);
  const Eigen::Index blocks = (rows + rows_per_block - 1) / rows_per_block;
  const auto run = [&](Eigen::Index index, LayerWorkspace<Scalar>& workspace) {
    const Eigen::Index first = index * rows_per_block;
    block(first, std::min(rows_per_block, rows - first), workspace);
  };
  if (rows * units < parallel_layer_threshold) {
    if (workspaces.empty()) workspaces.resize(1);
    for (Eigen::Index index = 0; index < blocks; ++index) run(index, workspaces.front());
    return;
  }
  const auto threads = static_cast<std::size_t>(omp_get_max_threads());
  if (workspaces.size() < threads) workspaces.resize(threads);
#pragma omp parallel
  {
    LayerWorkspace<Scalar>& workspace = workspaces[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(static)
    for (Eigen::Index index = 0; index < blocks; ++index) run(index, workspace);
  }
}

// Applies `rule` to every unit of `state` (one chain per row) given the units' total inputs, in place: the kernel
// gives p = rule(x, s, e^{−|x|}), the draw is u < p with u from streams[b] for row b. Inputs must already include
// any inverse temperature. `workspaces` holds one workspace per thread and grows to the thread count.
template <ConcreteUnitRule Rule, typename Scalar>
void sample_layer(const Rule& rule, const Matrix<Scalar>& inputs, Matrix<Scalar>& state,
                  std::vector<RandomStream>& streams, std::vector<LayerWorkspace<Scalar>>& workspaces) {
  require(inputs.rows() == state.rows() && inputs.cols() == state.cols(),
          "sample_layer: inputs and states differ in shape");
  require(static_cast<Eigen::Index>(streams.size()) >= state.rows(), "sample_layer: fewer streams than chains");
  const Eigen::Index units = inputs.cols();
  for_each_row_block(
      inputs.rows(), units, workspaces, [&](Eigen::Index first, Eigen::Index rows, LayerWorkspace<Scalar>& workspace) {
        // Matrix is row-major: the block's rows are one contiguous run of inputs and states.
        const Scalar* probability = unit_rule_probabilities(rule, Evaluation::exact, inputs.row(first).data(),
                                                            state.row(first).data(), rows * units, workspace.decays);
        draw_rows(probability, state.row(first).data(), streams.data() + first, rows, units, workspace.uniforms);
      });
}

// The same for one-off draws (it sizes its own workspaces); BatchedChains keeps its workspaces.
template <ConcreteUnitRule Rule, typename Scalar>
void sample_layer(const Rule& rule, const Matrix<Scalar>& inputs, Matrix<Scalar>& state,
                  std::vector<RandomStream>& streams) {
  std::vector<LayerWorkspace<Scalar>> workspaces;
  sample_layer(rule, inputs, state, streams, workspaces);
}

// The models a chain's layer update reads: a BasicRbm, or a FixedRbm (the same model with Wᵀ kept beside W).
template <typename Model, typename Scalar>
concept LayerModel = std::same_as<Model, BasicRbm<Scalar>> || std::same_as<Model, FixedRbm<Scalar>>;

template <typename Scalar>
class BatchedChains {
 public:
  // chains × n_visible visible states and chains × n_hidden hidden states, all zero, each chain with its stream.
  BatchedChains(Eigen::Index chains, Eigen::Index n_visible, Eigen::Index n_hidden, std::uint64_t seed,
                std::uint64_t first_stream = 0);

  Eigen::Index chains() const { return visible_.rows(); }
  const Matrix<Scalar>& visible() const { return visible_; }
  const Matrix<Scalar>& hidden() const { return hidden_; }
  Matrix<Scalar>& visible() { return visible_; }
  Matrix<Scalar>& hidden() { return hidden_; }
  std::vector<RandomStream>& streams() { return streams_; }
  const std::vector<RandomStream>& streams() const { return streams_; }

  // The product paths this chain's layer updates and energies may take (binary_product.hpp): all of them unless a
  // test or benchmark compares one with the other; the numbers are the same to rounding (in place: to the bit).
  void set_product_paths(ProductPaths paths) { product_paths_ = paths; }
  ProductPaths product_paths() const { return product_paths_; }

  // Sets the visible states (values must be 0 or 1); the hidden states stay as they are.
  template <typename Derived>
  void set_visible(const Eigen::MatrixBase<Derived>& visible) {
    require(visible.rows() == visible_.rows() && visible.cols() == visible_.cols(), [&] {
      return "BatchedChains::set_visible: expected a " + std::to_string(visible_.rows()) + "×" +
             std::to_string(visible_.cols()) + " matrix";
    });
    visible_ = visible.template cast<Scalar>();
  }

  // h ← rule(β(c + W v), h), then v ← rule(β(b + Wᵀ h), v). The model is a BasicRbm or, for a model held fixed
  // over many sweeps, a FixedRbm (faster for a single chain; the same numbers).
  void sweep(const BasicRbm<Scalar>& rbm, const UnitRule& rule, Scalar inverse_temperature = Scalar(1));
  void update_hidden(const BasicRbm<Scalar>& rbm, const UnitRule& rule, Scalar inverse_temperature = Scalar(1));
  void update_visible(const BasicRbm<Scalar>& rbm, const UnitRule& rule, Scalar inverse_temperature = Scalar(1));
  void sweep(const FixedRbm<Scalar>& rbm, const UnitRule& rule, Scalar inverse_temperature = Scalar(1));
  void update_hidden(const FixedRbm<Scalar>& rbm, const UnitRule& rule, Scalar inverse_temperature = Scalar(1));
  void update_visible(const FixedRbm<Scalar>& rbm, const UnitRule& rule, Scalar inverse_temperature = Scalar(1));
  template <typename Model, ConcreteUnitRule Rule>
  requires LayerModel<Model, Scalar>
  void sweep(const Model& rbm, const Rule& rule, Scalar inverse_temperature = Scalar(1)) {
    update_hidden(rbm, rule, inverse_temperature);
    update_visible(rbm, rule, inverse_temperature);
  }
  template <typename Model, ConcreteUnitRule Rule>
  requires LayerModel<Model, Scalar>
  void update_hidden(const Model& rbm, const Rule& rule, Scalar inverse_temperature = Scalar(1)) {
    rbm.binary_layer_inputs(Layer::hidden, visible_, hidden_inputs_, inverse_temperature, product_paths_);
    sample_from_inputs(Layer::hidden, hidden_inputs_, rule);
  }
  template <typename Model, ConcreteUnitRule Rule>
  requires LayerModel<Model, Scalar>
  void update_visible(const Model& rbm, const Rule& rule, Scalar inverse_temperature = Scalar(1)) {
    rbm.binary_layer_inputs(Layer::visible, hidden_, visible_inputs_, inverse_temperature, product_paths_);
    sample_from_inputs(Layer::visible, visible_inputs_, rule);
  }

  // layer ← rule(inputs, layer) for total inputs computed elsewhere, with any inverse temperature and bias already
  // in them (chains that start at the data reuse the positive phase's c + W v; AIS mixes in its base rates), in
  // the chains' own workspaces.
  void sample_from_inputs(Layer layer, const Matrix<Scalar>& inputs, const UnitRule& rule);
  template <ConcreteUnitRule Rule>
  void sample_from_inputs(Layer layer, const Matrix<Scalar>& inputs, const Rule& rule) {
    sample_layer(rule, inputs, layer == Layer::hidden ? hidden_ : visible_, streams_, workspaces_);
  }
  // layer ← 1 with the given probabilities (each unit independently; a Gibbs update whose p(· | other layer) is
  // already at hand: chains that start at the data draw h from the positive phase's p(h | v)). The same draws as
  // sample_from_inputs with GibbsRule on the inputs the probabilities are σ of.
  void draw_from_probabilities(Layer layer, const Matrix<Scalar>& probabilities) {
    Matrix<Scalar>& state = layer == Layer::hidden ? hidden_ : visible_;
    require(probabilities.rows() == state.rows() && probabilities.cols() == state.cols(),
            "BatchedChains::draw_from_probabilities: the probabilities differ in shape from the layer");
    for_each_row_block(state.rows(), state.cols(), workspaces_,
                       [&](Eigen::Index first, Eigen::Index rows, LayerWorkspace<Scalar>& workspace) {
                         draw_rows(probabilities.row(first).data(), state.row(first).data(), streams_.data() + first,
                                   rows, state.cols(), workspace.uniforms);
                       });
  }

  // E(v, h) = −hᵀ(c + W v) − bᵀv of every chain, c + W v by the 0/1 product into a kept workspace (parallel
  // tempering's swaps take the energies of every replica at every update).
  Vector<Scalar> energies(const BasicRbm<Scalar>& rbm) const {
    rbm.binary_layer_inputs(Layer::hidden, visible_, energy_fields_, Scalar(1), product_paths_);
    return energies_from_fields(rbm, energy_fields_);
  }
  Vector<Scalar> energies(const FixedRbm<Scalar>& rbm) const {
    rbm.binary_layer_inputs(Layer::hidden, visible_, energy_fields_, Scalar(1), product_paths_);
    return energies_from_fields(rbm.rbm(), energy_fields_);
  }
  // The same energies given c + W v of the current visible states (`hidden_fields`, chains × n_hidden), for a
  // caller that has them at hand (an energy trace reuses them for the next sweep's hidden update).
  Vector<Scalar> energies_from_fields(const BasicRbm<Scalar>& rbm, const Matrix<Scalar>& hidden_fields) const {
    return -((hidden_.array() * hidden_fields.array()).rowwise().sum().matrix() + visible_ * rbm.visible_bias);
  }

 private:
  Matrix<Scalar> visible_;
  Matrix<Scalar> hidden_;
  ProductPaths product_paths_;
  Matrix<Scalar> hidden_inputs_;  // workspaces, kept so a sweep allocates nothing
  Matrix<Scalar> visible_inputs_;
  mutable Matrix<Scalar> energy_fields_;            // c + W v for energies(), a workspace only
  std::vector<LayerWorkspace<Scalar>> workspaces_;  // one per thread
  std::vector<RandomStream> streams_;
};

extern template class BatchedChains<float>;
extern template class BatchedChains<double>;

}  // namespace rbmix
