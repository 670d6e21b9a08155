#include "rbmix/experiments/random_start_energy_traces.hpp"

#include "rbmix/core/error.hpp"
#include "rbmix/sampling/batched_chains.hpp"
#include "rbmix/sampling/energy_trace.hpp"

namespace rbmix::experiments {
namespace {

template <typename Scalar>
MatrixD sample_energy_traces_in(const Rbm& rbm, const EnergyTraceRequest& request) {
  BatchedChains<Scalar> chains(request.chains, rbm.n_visible(), rbm.n_hidden(), request.seed);
  // Uniform start: the Gibbs rule at input 0 sets each unit to 1 with probability 1/2.
  const Matrix<Scalar> zero_inputs = Matrix<Scalar>::Zero(request.chains, rbm.n_visible());
  sample_layer(GibbsRule{}, zero_inputs, chains.visible(), chains.streams());
  return record_energy_trace(chains, rbm.cast<Scalar>(), request.rule, request.steps, request.burn_in);
}

}  // namespace

MatrixD sample_energy_traces(const Rbm& rbm, const EnergyTraceRequest& request) {
  require(request.chains >= 1, "mixing: --chains must be positive");
  require(request.steps >= 2, "mixing: --steps must be at least 2");
  return request.single_precision ? sample_energy_traces_in<float>(rbm, request)
                                  : sample_energy_traces_in<double>(rbm, request);
}

}  // namespace rbmix::experiments
