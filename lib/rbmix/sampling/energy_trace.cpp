#include "rbmix/sampling/energy_trace.hpp"

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
  for (Eigen::Index sweep = 0; sweep < burn_in; ++sweep) {
    chains.sweep(rbm, rule);
    if (on_sweep) on_sweep(sweep + 1);
  }
  MatrixD trace(steps, chains.chains());
  for (Eigen::Index step = 0; step < steps; ++step) {
    chains.sweep(rbm, rule);
    trace.row(step) = chains.energies(rbm).template cast<double>().transpose();
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
