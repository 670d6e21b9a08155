#include "rbmix/analysis/exact_autocorrelation_time.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/sweep_operator.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/verify/generators.hpp"

namespace rbmix::analysis {
namespace {

// A linear solve of a well-conditioned ≤ 64-state system against a closed form or a truncated series.
constexpr double kSolveTolerance = 1e-9;

// Two-state chain with P(0→1) = a, P(1→0) = b: ρ(t) = (1 − a − b)^t for f = the state, so
// τ = (1 + μ)/(1 − μ) with μ = 1 − a − b — the AR(1) form of docs/algorithms/mixing-metrics.md §6.
TEST(ExactAutocorrelationTime, TwoStateChainMatchesTheClosedForm) {
  for (const auto& [a, b] : {std::pair{0.3, 0.1}, std::pair{0.9, 0.8}, std::pair{0.05, 0.02}}) {
    MatrixD transition(2, 2);
    transition << 1 - a, a, b, 1 - b;
    VectorD stationary(2);
    stationary << b / (a + b), a / (a + b);
    const double mu = 1 - a - b;
    EXPECT_NEAR(exact_integrated_autocorrelation_time(transition, stationary, VectorD::LinSpaced(2, 0.0, 1.0)),
                (1 + mu) / (1 - mu), kSolveTolerance);
  }
}

// Against the definition: 1 + 2 Σ_{t≥1} ⟨f̄, K^t f̄⟩_π / Var f, summed until the terms vanish.
RC_GTEST_PROP(ExactAutocorrelationTime, MatchesTheAutocorrelationSeriesOfTheEnergy, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(3, 1.5);
  const JointStateSpace space(rbm);
  const VectorD stationary = space.stationary_distribution(rbm);
  const VectorD energy = space.energies(rbm);
  const VectorD centred = energy.array() - stationary.dot(energy);
  const double variance = stationary.dot(centred.cwiseProduct(centred));
  RC_PRE(variance > 1e-12);
  for (const UnitRule& rule : {UnitRule{GibbsRule{}}, UnitRule{FlipTheStateRule{}}}) {
    const MatrixD transition = sweep_transition_matrix(rbm, rule);
    double series = 1.0;
    VectorD propagated = centred;
    for (int t = 1; t < 20000; ++t) {
      propagated = transition * propagated;
      const double term = stationary.dot(centred.cwiseProduct(propagated)) / variance;
      series += 2.0 * term;
      if (propagated.cwiseAbs().maxCoeff() < 1e-15) break;
    }
    const double tau = exact_integrated_autocorrelation_time(transition, stationary, energy);
    RC_ASSERT(std::abs(tau - series) < kSolveTolerance * std::max(1.0, std::abs(series)));
  }
}

// The matrix-free series on the sweep operator against the dense solve.
RC_GTEST_PROP(ExactAutocorrelationTime, MatrixFreeSeriesAgreesWithTheDenseSolve, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(3, 1.5);
  const JointStateSpace space(rbm);
  const VectorD stationary = space.stationary_distribution(rbm);
  const VectorD energy = space.energies(rbm);
  const VectorD centred = energy.array() - stationary.dot(energy);
  RC_PRE(stationary.dot(centred.cwiseProduct(centred)) > 1e-12);
  for (const UnitRule& rule : {UnitRule{GibbsRule{}}, UnitRule{FlipTheStateRule{}}}) {
    const auto series = integrated_autocorrelation_time_by_series(SweepOperator(rbm, rule), stationary, energy);
    RC_ASSERT(series.converged);
    const double dense = exact_integrated_autocorrelation_time(sweep_transition_matrix(rbm, rule), stationary, energy);
    RC_ASSERT(std::abs(series.autocorrelation_time - dense) < kSolveTolerance * std::max(1.0, std::abs(dense)));
  }
}

TEST(ExactAutocorrelationTime, RejectsAConstantFunction) {
  const MatrixD transition = MatrixD::Constant(2, 2, 0.5);
  const VectorD stationary = VectorD::Constant(2, 0.5);
  EXPECT_THROW(exact_integrated_autocorrelation_time(transition, stationary, VectorD::Ones(2)), InputError);
}

// A two-state chain that switches with probability 1e-300 is ergodic on paper, but 1 − 1e-300 rounds to 1: K is
// the identity in double precision, so τ is reported as unavailable rather than as a number or an exception.
TEST(ExactAutocorrelationTime, ANumericallyNonErgodicChainHasNoTime) {
  constexpr double switching = 1e-300;
  MatrixD transition(2, 2);
  transition << 1.0 - switching, switching, switching, 1.0 - switching;
  const VectorD stationary = VectorD::Constant(2, 0.5);
  EXPECT_FALSE(try_exact_integrated_autocorrelation_time(transition, stationary, VectorD::LinSpaced(2, 0.0, 1.0)));
  EXPECT_THROW(exact_integrated_autocorrelation_time(transition, stationary, VectorD::LinSpaced(2, 0.0, 1.0)),
               InputError);
}

}  // namespace
}  // namespace rbmix::analysis
