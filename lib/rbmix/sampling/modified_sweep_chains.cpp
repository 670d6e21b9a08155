#include "rbmix/sampling/modified_sweep_chains.hpp"

#include <string>

#include "rbmix/core/entry_checks.hpp"
#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

// 2^26 joint states: the exact builder's largest state space (its matrix-free route).
constexpr Eigen::Index kMostJointUnits = 26;

std::uint64_t joint_index(const auto& visible, const auto& hidden) {
  std::uint64_t index = 0;
  for (Eigen::Index j = 0; j < visible.size(); ++j) index |= static_cast<std::uint64_t>(visible[j] != 0) << j;
  for (Eigen::Index i = 0; i < hidden.size(); ++i)
    index |= static_cast<std::uint64_t>(hidden[i] != 0) << (visible.size() + i);
  return index;
}

}  // namespace

template <typename Scalar>
ModifiedSweepChains<Scalar>::ModifiedSweepChains(const BasicRbm<Scalar>& rbm, const UnitRule& rule,
                                                 const VectorD& sweep_diagonal, Eigen::Index chains, std::uint64_t seed,
                                                 std::uint64_t first_stream, Scalar inverse_temperature)
    : rbm_(rbm),
      rule_(rule),
      diagonal_(sweep_diagonal),
      inverse_temperature_(inverse_temperature),
      chains_(chains, rbm.n_visible(), rbm.n_hidden(), seed, first_stream) {
  const Eigen::Index units = rbm.n_visible() + rbm.n_hidden();
  require(units <= kMostJointUnits, "modified sweep sampler: the RBM has " + std::to_string(units) +
                                        " units; the exact sweep diagonal exists for at most " +
                                        std::to_string(kMostJointUnits));
  require(sweep_diagonal.size() == (Eigen::Index{1} << units), "modified sweep sampler: the sweep diagonal has " +
                                                                   std::to_string(sweep_diagonal.size()) +
                                                                   " entries, expected 2^" + std::to_string(units));
  require(all_in_unit_interval(sweep_diagonal),
          "modified sweep sampler: the sweep diagonal has entries outside [0, 1]");
  lambda_ = sweep_diagonal.minCoeff();
  require(lambda_ < 1.0,
          "modified sweep sampler: every diagonal entry of the sweep is 1 (λ = 1): the sweep is the "
          "identity and (A − λI)/(1 − λ) is undefined");
}

template <typename Scalar>
std::uint64_t ModifiedSweepChains<Scalar>::state_index(Eigen::Index chain) const {
  return joint_index(chains_.visible().row(chain), chains_.hidden().row(chain));
}

template <typename Scalar>
void ModifiedSweepChains<Scalar>::step() {
  std::vector<std::uint64_t> start(static_cast<std::size_t>(chains_.chains()));
  std::vector<Eigen::Index> pending(start.size());
  for (Eigen::Index b = 0; b < chains_.chains(); ++b) {
    start[static_cast<std::size_t>(b)] = state_index(b);
    pending[static_cast<std::size_t>(b)] = b;
  }
  // Each round sweeps only the chains still pending, as a batch of their own that carries their streams, so that
  // no chain draws a number for another's repeat.
  while (!pending.empty()) {
    const auto count = static_cast<Eigen::Index>(pending.size());
    BatchedChains<Scalar> round(count, rbm_.n_visible(), rbm_.n_hidden(), 0);
    for (Eigen::Index k = 0; k < count; ++k) {
      const Eigen::Index b = pending[static_cast<std::size_t>(k)];
      round.visible().row(k) = chains_.visible().row(b);
      round.hidden().row(k) = chains_.hidden().row(b);
      round.streams()[static_cast<std::size_t>(k)] = chains_.streams()[static_cast<std::size_t>(b)];
    }
    round.sweep(rbm_, rule_, inverse_temperature_);
    std::vector<Eigen::Index> repeat;
    for (Eigen::Index k = 0; k < count; ++k) {
      const Eigen::Index b = pending[static_cast<std::size_t>(k)];
      RandomStream& stream = round.streams()[static_cast<std::size_t>(k)];
      const std::uint64_t from = start[static_cast<std::size_t>(b)];
      // A return is dropped with probability λ/A(s, s), so A(s, s) > 0 here unless rounding made a certain stay of
      // probability 0 happen; then λ = 0 and the return is kept.
      if (joint_index(round.visible().row(k), round.hidden().row(k)) == from && lambda_ > 0.0 &&
          stream.uniform() < lambda_ / diagonal_[static_cast<Eigen::Index>(from)])
        repeat.push_back(b);
      chains_.visible().row(b) = round.visible().row(k);
      chains_.hidden().row(b) = round.hidden().row(k);
      chains_.streams()[static_cast<std::size_t>(b)] = stream;
    }
    pending.swap(repeat);
  }
}

template class ModifiedSweepChains<float>;
template class ModifiedSweepChains<double>;

}  // namespace rbmix
