#include "rbmix/sampling/batched_chains.hpp"

#include <omp.h>

namespace rbmix {
namespace {

// Layers smaller than this many units run on one thread: starting a thread team costs more than the work
// (measured: a 4-chain 16×16 sweep ran 13× slower with two threads than with one on a busy 2-core machine).
constexpr Eigen::Index parallel_layer_threshold = 16384;

// Row b of `state` is updated with streams[b]: the kernel gives p = rule(x, s, e^{−|x|}), the draw is u < p.
// `decays` holds one workspace per thread and grows to the thread count.
template <typename Scalar, typename Rule>
void sample_rows(const Rule& rule, const Matrix<Scalar>& inputs, Matrix<Scalar>& state,
                 std::vector<RandomStream>& streams, std::vector<DecayWorkspace<Scalar>>& decays) {
  const Eigen::Index units = inputs.cols();
  const auto sample_row = [&](Eigen::Index row, DecayWorkspace<Scalar>& decay) {
    RandomStream& stream = streams[static_cast<std::size_t>(row)];
    Scalar* current = state.row(row).data();
    apply_unit_rule(rule, Evaluation::exact, inputs.row(row).data(), current, units, decay,
                    [&](Eigen::Index unit, Scalar probability) {
                      current[unit] = stream.uniform_as<Scalar>() < probability ? Scalar(1) : Scalar(0);
                    });
  };
  if (inputs.rows() * units < parallel_layer_threshold) {
    if (decays.empty()) decays.resize(1);
    for (Eigen::Index row = 0; row < inputs.rows(); ++row) sample_row(row, decays.front());
    return;
  }
  const auto threads = static_cast<std::size_t>(omp_get_max_threads());
  if (decays.size() < threads) decays.resize(threads);
#pragma omp parallel
  {
    DecayWorkspace<Scalar>& decay = decays[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(static)
    for (Eigen::Index row = 0; row < inputs.rows(); ++row) sample_row(row, decay);
  }
}

// Checks shapes and dispatches on the rule once per layer, not once per unit.
template <typename Scalar>
void sample_layer_with(const UnitRule& rule, const Matrix<Scalar>& inputs, Matrix<Scalar>& state,
                       std::vector<RandomStream>& streams, std::vector<DecayWorkspace<Scalar>>& decays) {
  require(inputs.rows() == state.rows() && inputs.cols() == state.cols(),
          "sample_layer: inputs and states differ in shape");
  require(static_cast<Eigen::Index>(streams.size()) >= state.rows(), "sample_layer: fewer streams than chains");
  std::visit([&](const auto& concrete) { sample_rows(concrete, inputs, state, streams, decays); }, rule);
}

}  // namespace

template <typename Scalar>
void sample_layer(const UnitRule& rule, const Matrix<Scalar>& inputs, Matrix<Scalar>& state,
                  std::vector<RandomStream>& streams) {
  std::vector<DecayWorkspace<Scalar>> decays;
  sample_layer_with(rule, inputs, state, streams, decays);
}

template <typename Scalar>
BatchedChains<Scalar>::BatchedChains(Eigen::Index chains, Eigen::Index n_visible, Eigen::Index n_hidden,
                                     std::uint64_t seed, std::uint64_t first_stream)
    : visible_(Matrix<Scalar>::Zero(chains, n_visible)),
      hidden_(Matrix<Scalar>::Zero(chains, n_hidden)),
      hidden_inputs_(chains, n_hidden),
      visible_inputs_(chains, n_visible) {
  require(chains > 0, "BatchedChains: the number of chains must be positive");
  streams_.reserve(static_cast<std::size_t>(chains));
  for (Eigen::Index chain = 0; chain < chains; ++chain)
    streams_.emplace_back(seed, first_stream + static_cast<std::uint64_t>(chain), StreamDomain::chains);
}

template <typename Scalar>
void BatchedChains<Scalar>::update_hidden(const BasicRbm<Scalar>& rbm, const UnitRule& rule,
                                          Scalar inverse_temperature) {
  rbm.layer_inputs(Layer::hidden, visible_, hidden_inputs_, inverse_temperature);
  sample_layer_with(rule, hidden_inputs_, hidden_, streams_, decays_);
}

template <typename Scalar>
void BatchedChains<Scalar>::update_visible(const BasicRbm<Scalar>& rbm, const UnitRule& rule,
                                           Scalar inverse_temperature) {
  rbm.layer_inputs(Layer::visible, hidden_, visible_inputs_, inverse_temperature);
  sample_layer_with(rule, visible_inputs_, visible_, streams_, decays_);
}

template <typename Scalar>
void BatchedChains<Scalar>::sweep(const BasicRbm<Scalar>& rbm, const UnitRule& rule, Scalar inverse_temperature) {
  update_hidden(rbm, rule, inverse_temperature);
  update_visible(rbm, rule, inverse_temperature);
}

template void sample_layer<float>(const UnitRule&, const Matrix<float>&, Matrix<float>&, std::vector<RandomStream>&);
template void sample_layer<double>(const UnitRule&, const Matrix<double>&, Matrix<double>&, std::vector<RandomStream>&);
template class BatchedChains<float>;
template class BatchedChains<double>;

}  // namespace rbmix
