#pragma once
// ModifiedSweepChains: B chains on a tiny RBM that step by the modified sweep matrix of 001 §3,
// A′ = (A − λI)/(1 − λ) with A = K_h K_v the sweep of a unit rule and λ = min_x A(x, x) (docs/algorithms/operators.md
// §2.4; `analyze --operators modified:RULE`), so that this operator too can be sampled and checked against its exact
// rows. It needs the exact diagonal A(x, x) of the sweep for every joint state x = v + 2^m·h, which the exact
// builder gives for tiny models (analysis::SweepOperator::diagonal, or the diagonal of
// analysis::sweep_transition_matrix).
//
// One step of A′ by rejection (why it is exact): from state s, draw t by one sweep of A. If t ≠ s, move to t. If
// t = s, keep it with probability r = (A(s, s) − λ)/A(s, s) and otherwise sweep again from s, repeating until a
// draw is kept. A round then ends in t ≠ s with probability A(s, t), in s kept with probability A(s, s)·r =
// A(s, s) − λ, and starts again with probability A(s, s)(1 − r) = λ, so the step ends in t with probability
// A(s, t)/(1 − λ) = A′(s, t) and in s with probability (A(s, s) − λ)/(1 − λ) = A′(s, s): the rows of A′. (Keeping a
// return with probability (A(s, s) − λ)/(A(s, s)(1 − λ)) without repeating would leave A′'s rows summing to less
// than 1: A′(s, t) > A(s, t) needs the repeats.) A step costs 1/(1 − λ) sweeps on average; a state with
// A(s, s) = λ never stays.
//
// Every draw of chain b, sweeps and the keep-or-repeat coins alike, comes from its own RandomStream(seed,
// first_stream + b), so a chain's path does not depend on the other chains or on the thread count.
#include <cstdint>
#include <vector>

#include "rbmix/model/rbm.hpp"
#include "rbmix/sampling/batched_chains.hpp"
#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix {

template <typename Scalar>
class ModifiedSweepChains {
 public:
  // `sweep_diagonal` holds A(x, x) of the sweep of `rule` at `inverse_temperature` for all 2^{m+n} joint states.
  // Throws InputError when its size is not 2^{m+n}, an entry is not in [0, 1], or λ = 1 (A is the identity and
  // A′ is undefined). All chains start at v = 0, h = 0.
  ModifiedSweepChains(const BasicRbm<Scalar>& rbm, const UnitRule& rule, const VectorD& sweep_diagonal,
                      Eigen::Index chains, std::uint64_t seed, std::uint64_t first_stream = 0,
                      Scalar inverse_temperature = Scalar(1));

  double lambda() const { return lambda_; }
  Eigen::Index chains() const { return chains_.chains(); }
  Matrix<Scalar>& visible() { return chains_.visible(); }
  Matrix<Scalar>& hidden() { return chains_.hidden(); }
  const Matrix<Scalar>& visible() const { return chains_.visible(); }
  const Matrix<Scalar>& hidden() const { return chains_.hidden(); }
  // Chain b's stream, RandomStream(seed, first_stream + b): for drawing start states.
  std::vector<RandomStream>& streams() { return chains_.streams(); }
  // The joint state index v + 2^m·h of chain b.
  std::uint64_t state_index(Eigen::Index chain) const;
  // E(v, h) of every chain.
  Vector<Scalar> energies() const { return chains_.energies(rbm_); }

  // Every chain takes one step of A′.
  void step();

 private:
  BasicRbm<Scalar> rbm_;
  UnitRule rule_;
  VectorD diagonal_;
  double lambda_ = 0.0;
  Scalar inverse_temperature_;
  BatchedChains<Scalar> chains_;
};

extern template class ModifiedSweepChains<float>;
extern template class ModifiedSweepChains<double>;

}  // namespace rbmix
