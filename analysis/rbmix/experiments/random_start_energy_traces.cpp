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

template <typename Scalar>
MatrixD sample_energy_traces_in(const Rbm& rbm, const EnergyTraceRequest& request) {
  BatchedChains<Scalar> chains(request.chains, rbm.n_visible(), rbm.n_hidden(), request.seed);
  // Uniform start: the Gibbs rule at input 0 sets each unit to 1 with probability 1/2.
  const Matrix<Scalar> zero_inputs = Matrix<Scalar>::Zero(request.chains, rbm.n_visible());
  sample_layer(GibbsRule{}, zero_inputs, chains.visible(), chains.streams());
  return record_energy_trace(chains, rbm.cast<Scalar>(), request.rule, request.steps, request.burn_in,
                             request.on_sweep);
}

template <typename Scalar>
MatrixD sample_modified_sweep_energy_traces_in(const Rbm& rbm, const EnergyTraceRequest& request) {
  const VectorD diagonal = analysis::SweepOperator(rbm, request.rule).diagonal();
  ModifiedSweepChains<Scalar> chains(rbm.cast<Scalar>(), request.rule, diagonal, request.chains, request.seed);
  // The same uniform start as sample_energy_traces_in, from the same streams.
  const Matrix<Scalar> zero_inputs = Matrix<Scalar>::Zero(request.chains, rbm.n_visible());
  sample_layer(GibbsRule{}, zero_inputs, chains.visible(), chains.streams());
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

void require_trace_shape(const EnergyTraceRequest& request) {
  require(request.chains >= 1, "mixing: --chains must be positive");
  require(request.steps >= 2, "mixing: --steps must be at least 2");
}

}  // namespace

MatrixD sample_modified_sweep_energy_traces(const Rbm& rbm, const EnergyTraceRequest& request) {
  require_trace_shape(request);
  require(rbm.n_visible() + rbm.n_hidden() <= max_modified_sweep_units,
          "mixing: the modified sweep is sampled from its exact diagonal, for at most " +
              std::to_string(max_modified_sweep_units) + " units; the model has " +
              std::to_string(rbm.n_visible() + rbm.n_hidden()));
  return request.single_precision ? sample_modified_sweep_energy_traces_in<float>(rbm, request)
                                  : sample_modified_sweep_energy_traces_in<double>(rbm, request);
}

MatrixD sample_energy_traces(const Rbm& rbm, const EnergyTraceRequest& request) {
  require_trace_shape(request);
  return request.single_precision ? sample_energy_traces_in<float>(rbm, request)
                                  : sample_energy_traces_in<double>(rbm, request);
}

}  // namespace rbmix::experiments
