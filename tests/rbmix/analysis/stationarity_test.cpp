#include "rbmix/analysis/stationarity.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "rbmix/analysis/transition_operator.hpp"

namespace rbmix::analysis {
namespace {

// Hand-built chains of 2 and 3 states: each residual is a handful of products of numbers ≤ 1.
constexpr double kRoundingTolerance = 1e-15;

// The general two-state chain K = [[1 − a, a], [b, 1 − b]]: its stationary distribution is π = (b, a)/(a + b).
MatrixD two_state_chain(double a, double b) {
  MatrixD chain(2, 2);
  chain << 1 - a, a, b, 1 - b;
  return chain;
}
VectorD two_state_stationary(double a, double b) { return Eigen::Vector2d(b, a) / (a + b); }

// A Metropolis chain for π = (1/2, 1/3, 1/6): propose one of the other two states with probability 1/2 each and
// accept with min(1, π(y)/π(x)). Reversible by construction (docs/algorithms/operators.md §2).
MatrixD metropolis_three_state_chain() {
  MatrixD chain(3, 3);
  chain << 1 - 1.0 / 3 - 1.0 / 6, 1.0 / 3, 1.0 / 6,  // from x₀: accept π₁/π₀ = 2/3 and π₂/π₀ = 1/3, each halved
      0.5, 1 - 0.5 - 0.25, 0.25,                     // from x₁: accept 1 and 1/2
      0.5, 0.5, 0.0;                                 // from x₂: always accept
  return chain;
}
VectorD metropolis_three_state_stationary() { return Eigen::Vector3d(0.5, 1.0 / 3, 1.0 / 6); }

// Stay or step forward around a cycle of 3: doubly stochastic, so the uniform π is stationary, but probability
// flows only one way round, so detailed balance fails by π(x) K(x, x+1) = 1/3 · 1/2 = 1/6.
MatrixD cyclic_three_state_chain() {
  MatrixD chain(3, 3);
  chain << 0.5, 0.5, 0.0, 0.0, 0.5, 0.5, 0.5, 0.0, 0.5;
  return chain;
}

RC_GTEST_PROP(Stationarity, TwoStateChainHasItsClosedFormStationaryDistribution, ()) {
  const double a = *rc::gen::inRange(1, 1001) / 1000.0;
  const double b = *rc::gen::inRange(1, 1001) / 1000.0;
  const MatrixD chain = two_state_chain(a, b);
  const DenseOperator op(chain);
  RC_ASSERT(stationarity_residual(op, two_state_stationary(a, b)) < kRoundingTolerance);
  RC_ASSERT(row_sum_error(op) < kRoundingTolerance);
  // Every two-state chain is reversible: the only flows are π(0) a and π(1) b, both ab/(a + b).
  RC_ASSERT(detailed_balance_error(chain, two_state_stationary(a, b)) < kRoundingTolerance);
}

// For π' = (1/2, 1/2), π'K − π' = ((b − a)/2, (a − b)/2), so the ℓ₁ residual is exactly |a − b|.
RC_GTEST_PROP(Stationarity, ResidualOfAWrongDistributionIsItsClosedForm, ()) {
  const double a = *rc::gen::inRange(1, 1001) / 1000.0;
  const double b = *rc::gen::inRange(1, 1001) / 1000.0;
  const MatrixD chain = two_state_chain(a, b);
  RC_ASSERT(std::abs(stationarity_residual(DenseOperator(chain), Eigen::Vector2d(0.5, 0.5)) - std::abs(a - b)) <
            kRoundingTolerance);
}

TEST(Stationarity, ReversibleThreeStateChainSatisfiesDetailedBalance) {
  const MatrixD chain = metropolis_three_state_chain();
  const DenseOperator op(chain);
  EXPECT_LT(row_sum_error(op), kRoundingTolerance);
  EXPECT_LT(stationarity_residual(op, metropolis_three_state_stationary()), kRoundingTolerance);
  EXPECT_LT(detailed_balance_error(chain, metropolis_three_state_stationary()), kRoundingTolerance);
}

TEST(Stationarity, NonReversibleThreeStateChainIsStationaryButNotInDetailedBalance) {
  const MatrixD chain = cyclic_three_state_chain();
  const VectorD uniform = VectorD::Constant(3, 1.0 / 3);
  const DenseOperator op(chain);
  EXPECT_LT(row_sum_error(op), kRoundingTolerance);
  EXPECT_LT(stationarity_residual(op, uniform), kRoundingTolerance);
  EXPECT_NEAR(detailed_balance_error(chain, uniform), 1.0 / 6, kRoundingTolerance);
}

// Detailed balance is with respect to a given π: the reversible chain measured against the wrong π is not.
TEST(Stationarity, DetailedBalanceErrorDependsOnTheDistribution) {
  // π' uniform: max |π'(x)K(x,y) − π'(y)K(y,x)| = (1/3)|1/6 − 1/2| = 1/9, from the pair (x₀, x₂).
  EXPECT_NEAR(detailed_balance_error(metropolis_three_state_chain(), VectorD::Constant(3, 1.0 / 3)), 1.0 / 9,
              kRoundingTolerance);
}

TEST(Stationarity, RowSumErrorIsTheLargestDeviation) {
  MatrixD chain = metropolis_three_state_chain();
  chain(1, 2) += 0.125;
  chain(2, 0) -= 0.0625;
  EXPECT_NEAR(row_sum_error(DenseOperator(chain)), 0.125, kRoundingTolerance);
}

// The functions take any operator: the modified matrix (A − λI)/(1 − λ) keeps A's stationary distribution
// (001 §3); λ = 1/4 is below the cyclic chain's smallest diagonal entry 1/2.
TEST(Stationarity, WorksThroughAnyOperator) {
  const MatrixD chain = cyclic_three_state_chain();
  const DenseOperator base(chain);
  const ModifiedOperator<DenseOperator> modified(base, 0.25);
  EXPECT_LT(row_sum_error(modified), kRoundingTolerance);
  EXPECT_LT(stationarity_residual(modified, VectorD::Constant(3, 1.0 / 3)), kRoundingTolerance);
  EXPECT_GT(stationarity_residual(modified, Eigen::Vector3d(0.5, 0.25, 0.25)), 0.1);
}

TEST(Stationarity, RefusesADistributionOfTheWrongLength) {
  const MatrixD chain = cyclic_three_state_chain();
  EXPECT_THROW(stationarity_residual(DenseOperator(chain), VectorD::Constant(2, 0.5)), InputError);
  EXPECT_THROW(detailed_balance_error(chain, VectorD::Constant(4, 0.25)), InputError);
  EXPECT_THROW(detailed_balance_error(MatrixD::Identity(2, 3), VectorD::Constant(2, 0.5)), InputError);
}

}  // namespace
}  // namespace rbmix::analysis
