#pragma once
// Energy traces of independent chains started uniformly at random, or from given visible states: what `rbmix mixing`
// and the autocorr experiment estimate integrated autocorrelation times from.
#include <cstdint>
#include <functional>

#include "rbmix/model/rbm.hpp"
#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix::experiments {

struct EnergyTraceRequest {
  UnitRule rule = GibbsRule{};
  Eigen::Index steps = 10000;
  Eigen::Index chains = 1;
  Eigen::Index burn_in = 1000;
  std::uint64_t seed = 1;
  bool single_precision = false;
  // Optional: called after every sweep with the sweeps done of burn_in + steps (a progress line).
  std::function<void(Eigen::Index sweeps_done)> on_sweep;
  // 0: every chain starts from its own random state. K ≥ 2: K superchains of chains / K consecutive chains, the
  // chains of a superchain all starting from the random state drawn for its first chain (nested R̂,
  // convergence_diagnostics.hpp). K must divide the chains.
  Eigen::Index superchains = 0;
  // Empty: the uniform start above. Otherwise chains × n_visible 0/1 states, chain c starting from row c with its
  // hidden units drawn from p(h | v) under the model. A start drawn from the model's distribution (certified samples:
  // `rbmix sample --particle-metropolis` after the proposals `rbmix convergence` bounds) is then a draw of the joint
  // p(v, h), which every operator keeps, so the chains need no burn-in and their traces are stationary from the start.
  MatrixD start_visible{};
};

// Chains start with visible units uniform at random (each from its own stream, or shared within a superchain) or from
// request.start_visible, run burn_in sweeps, then record
// E(v, h) after each of `steps` sweeps: steps × chains. Throws InputError for fewer than 1 chain or 2 steps, and for
// start states that are not chains × n_visible 0/1 rows or come with superchains.
MatrixD sample_energy_traces(const Rbm& rbm, const EnergyTraceRequest& request);

// The same for the modified sweep (A − λI)/(1 − λ) of request.rule's sweep A, λ = min diagonal (001 §3;
// `analyze`'s modified:RULE), sampled exactly by ModifiedSweepChains from A's exact diagonal: tiny models only
// (InputError beyond max_modified_sweep_units units).
inline constexpr int max_modified_sweep_units = 20;
MatrixD sample_modified_sweep_energy_traces(const Rbm& rbm, const EnergyTraceRequest& request);

}  // namespace rbmix::experiments
