#include "rbmix/experiments/random_start_energy_traces.hpp"

#include <string>

#include "rbmix/analysis/sweep_operator.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/core/thread_count_tuner.hpp"
#include "rbmix/sampling/batched_chains.hpp"
#include "rbmix/sampling/energy_trace.hpp"
#include "rbmix/sampling/modified_sweep_chains.hpp"

namespace rbmix::experiments {
namespace {

// The uniform start: the Gibbs rule at input 0 sets each unit to 1 with probability 1/2; then every chain of a
// superchain takes the state of its superchain's first chain.
template <typename Scalar, typename Streams>
void start_uniformly(Matrix<Scalar>& visible, Streams& streams, Eigen::Index superchains) {
  const Matrix<Scalar> zero_inputs = Matrix<Scalar>::Zero(visible.rows(), visible.cols());
  sample_layer(GibbsRule{}, zero_inputs, visible, streams);
  if (superchains == 0) return;
  const Eigen::Index size = visible.rows() / superchains;
  for (Eigen::Index chain = 0; chain < visible.rows(); ++chain)
    visible.row(chain) = visible.row(chain / size * size).eval();
}

// Chain c takes row c of the given visible states and a hidden state drawn from p(h | v), so that a start drawn from
// p(v) is a draw of p(v, h) whatever the operator: T moves h from its current value and keeps the joint only if that
// value is h's conditional draw (docs/algorithms/tempering-along-trajectory.md §10.2).
template <typename Scalar, typename Streams>
void start_from_states(const BasicRbm<Scalar>& rbm, const MatrixD& start_visible, Matrix<Scalar>& visible,
                       Matrix<Scalar>& hidden, Streams& streams) {
  visible = start_visible.cast<Scalar>();
  Matrix<Scalar> hidden_inputs;
  rbm.layer_inputs(Layer::hidden, visible, hidden_inputs);
  sample_layer(GibbsRule{}, hidden_inputs, hidden, streams);
}

template <typename Scalar, typename Chains>
void start_chains(const Rbm& rbm, const EnergyTraceRequest& request, Chains& chains) {
  if (request.start_visible.size() == 0)
    start_uniformly(chains.visible(), chains.streams(), request.superchains);
  else
    start_from_states(rbm.cast<Scalar>(), request.start_visible, chains.visible(), chains.hidden(), chains.streams());
}

template <typename Scalar>
MatrixD sample_energy_traces_in(const Rbm& rbm, const EnergyTraceRequest& request) {
  BatchedChains<Scalar> chains(request.chains, rbm.n_visible(), rbm.n_hidden(), request.seed);
  start_chains<Scalar>(rbm, request, chains);
  return record_energy_trace(chains, rbm.cast<Scalar>(), request.rule, request.steps, request.burn_in,
                             request.on_sweep);
}

template <typename Scalar>
MatrixD sample_modified_sweep_energy_traces_in(const Rbm& rbm, const EnergyTraceRequest& request) {
  const VectorD diagonal = analysis::SweepOperator(rbm, request.rule).diagonal();
  ModifiedSweepChains<Scalar> chains(rbm.cast<Scalar>(), request.rule, diagonal, request.chains, request.seed);
  // The same start as sample_energy_traces_in, from the same streams.
  start_chains<Scalar>(rbm, request, chains);
  // Each step on the team a ThreadCountTuner picks by timing the steps, as record_energy_trace does.
  ThreadCountTuner tuner;
  const auto step_chains = [&] { chains.step(); };
  for (Eigen::Index step = 0; step < request.burn_in; ++step) {
    tuner.run(step_chains);
    if (request.on_sweep) request.on_sweep(step + 1);
  }
  MatrixD trace(request.steps, request.chains);
  for (Eigen::Index step = 0; step < request.steps; ++step) {
    tuner.run(step_chains);
    trace.row(step) = chains.energies().template cast<double>().transpose();
    if (request.on_sweep) request.on_sweep(request.burn_in + step + 1);
  }
  return trace;
}

void require_trace_shape(const Rbm& rbm, const EnergyTraceRequest& request) {
  require(request.chains >= 1, "mixing: --chains must be positive");
  require(request.steps >= 2, "mixing: --steps must be at least 2");
  require(request.superchains == 0 || (request.superchains >= 2 && request.chains % request.superchains == 0),
          "mixing: --superchains must be at least 2 and divide --chains (" + std::to_string(request.chains) +
              "), got " + std::to_string(request.superchains));
  if (request.start_visible.size() == 0) return;
  require(request.superchains == 0, "mixing: --superchains draws its own shared starts; it does not apply to given "
                                    "start states");
  require(request.start_visible.rows() == request.chains && request.start_visible.cols() == rbm.n_visible(), [&] {
    return "mixing: the start states are " + std::to_string(request.start_visible.rows()) + " × " +
           std::to_string(request.start_visible.cols()) + "; " + std::to_string(request.chains) +
           " chains of a model with " + std::to_string(rbm.n_visible()) + " visible units need " +
           std::to_string(request.chains) + " × " + std::to_string(rbm.n_visible());
  });
  require((request.start_visible.array() == 0.0 || request.start_visible.array() == 1.0).all(),
          "mixing: the start states must be 0/1");
}

}  // namespace

MatrixD sample_modified_sweep_energy_traces(const Rbm& rbm, const EnergyTraceRequest& request) {
  require_trace_shape(rbm, request);
  require(rbm.n_visible() + rbm.n_hidden() <= max_modified_sweep_units,
          "mixing: the modified sweep is sampled from its exact diagonal, for at most " +
              std::to_string(max_modified_sweep_units) + " units; the model has " +
              std::to_string(rbm.n_visible() + rbm.n_hidden()));
  return request.single_precision ? sample_modified_sweep_energy_traces_in<float>(rbm, request)
                                  : sample_modified_sweep_energy_traces_in<double>(rbm, request);
}

MatrixD sample_energy_traces(const Rbm& rbm, const EnergyTraceRequest& request) {
  require_trace_shape(rbm, request);
  return request.single_precision ? sample_energy_traces_in<float>(rbm, request)
                                  : sample_energy_traces_in<double>(rbm, request);
}

}  // namespace rbmix::experiments
