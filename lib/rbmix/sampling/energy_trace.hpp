#pragma once
// Energy traces (003 §4.3): E(v_t, h_t) of every chain after each sweep, the series whose autocorrelation
// measures how fast an operator mixes. Many independent chains of one BatchedChains batch give one column each;
// one long chain is the one-column case. The chains continue from whatever state they hold, so a caller can
// start them anywhere (data, all ones, a previous run) and can record in pieces.
#include <functional>

#include "rbmix/core/types.hpp"
#include "rbmix/sampling/batched_chains.hpp"

namespace rbmix {

// Runs `burn_in` unrecorded sweeps, then `steps` sweeps, recording the energies after each: steps × chains.
// Energies are returned in double whatever the sampling precision. `on_sweep` (optional) is called after every sweep,
// burn-in included, with the sweeps done of burn_in + steps: the hook a progress line hangs on.
template <typename Scalar>
MatrixD record_energy_trace(BatchedChains<Scalar>& chains, const BasicRbm<Scalar>& rbm, const UnitRule& rule,
                            Eigen::Index steps, Eigen::Index burn_in = 0,
                            const std::function<void(Eigen::Index sweeps_done)>& on_sweep = {});

}  // namespace rbmix
