#include "rbmix/sampling/energy_trace.hpp"

#include "rbmix/core/thread_count_tuner.hpp"

namespace rbmix {

template <typename Scalar>
MatrixD record_energy_trace(BatchedChains<Scalar>& chains, const BasicRbm<Scalar>& rbm, const UnitRule& rule,
                            Eigen::Index steps, Eigen::Index burn_in,
                            const std::function<void(Eigen::Index sweeps_done)>& on_sweep) {
  rbm.validate("record_energy_trace: model");
  require(rbm.n_visible() == chains.visible().cols() && rbm.n_hidden() == chains.hidden().cols(),
          "record_energy_trace: the chains' layer sizes differ from the model's");
  require(steps >= 1, "record_energy_trace: steps must be positive");
  require(burn_in >= 0, "record_energy_trace: burn-in must not be negative");
  // The model is fixed for the whole trace: with Wᵀ kept beside W, a single chain's hidden inputs read contiguous
  // rows instead of packing W at every update (fixed_rbm.hpp).
  const FixedRbm<Scalar> model(rbm);
  // c + W v of the current visible states serves twice: for the energy after a sweep and for the next sweep's hidden
  // update (β = 1). It is the very product a sweep and energies() form, so the trace is the same, one product fewer.
  Matrix<Scalar> fields;
  model.binary_layer_inputs(Layer::hidden, chains.visible(), fields);
  const auto sweep = [&] {
    chains.sample_from_inputs(Layer::hidden, fields, rule);
    chains.update_visible(model, rule);
    model.binary_layer_inputs(Layer::hidden, chains.visible(), fields);
  };
  // Each sweep runs on the team that a ThreadCountTuner picks by timing the sweeps, as training's updates do
  // (thread_count_tuner.hpp); the chains' numbers do not depend on the team.
  ThreadCountTuner tuner;
  for (Eigen::Index step = 0; step < burn_in; ++step) {
    tuner.run(sweep);
    if (on_sweep) on_sweep(step + 1);
  }
  MatrixD trace(steps, chains.chains());
  for (Eigen::Index step = 0; step < steps; ++step) {
    tuner.run(sweep);
    trace.row(step) = chains.energies_from_fields(rbm, fields).template cast<double>().transpose();
    if (on_sweep) on_sweep(burn_in + step + 1);
  }
  return trace;
}

template MatrixD record_energy_trace<float>(BatchedChains<float>&, const BasicRbm<float>&, const UnitRule&,
                                            Eigen::Index, Eigen::Index,
                                            const std::function<void(Eigen::Index)>&);
template MatrixD record_energy_trace<double>(BatchedChains<double>&, const BasicRbm<double>&, const UnitRule&,
                                             Eigen::Index, Eigen::Index,
                                             const std::function<void(Eigen::Index)>&);

}  // namespace rbmix
