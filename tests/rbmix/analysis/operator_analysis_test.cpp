#include "rbmix/analysis/operator_analysis.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rbmix/analysis/exact_autocorrelation_time.hpp"
#include "rbmix/analysis/sweep_operator.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix::analysis {
namespace {

// Stationarity and row sums of ≤ 2^11 states: sums of rounded products, far below this bound.
constexpr double kStochasticTolerance = 1e-12;

Rbm random_rbm(int n_visible, int n_hidden, std::uint64_t seed) {
  RandomStream stream(seed, 0, StreamDomain::experiment);
  Rbm rbm(n_visible, n_hidden);
  rbm.weights = MatrixD::NullaryExpr(n_hidden, n_visible, [&] { return 2.0 * stream.uniform() - 1.0; });
  rbm.visible_bias = VectorD::NullaryExpr(n_visible, [&] { return stream.uniform() - 0.5; });
  return rbm;
}

TEST(OperatorAnalysis, ParsesOperatorSpecifications) {
  EXPECT_FALSE(parse_operator_specification("flip").modified);
  EXPECT_TRUE(parse_operator_specification("modified:gibbs").modified);
  EXPECT_EQ(to_string(parse_operator_specification("modified:mix:0.5")), "modified:mix:0.5");
  EXPECT_THROW(parse_operator_specification("modified:"), InputError);
  EXPECT_THROW(parse_operator_specification("metropolis"), InputError);
}

TEST(OperatorAnalysis, DensePathReportsTheDenseFigures) {
  const Rbm rbm = random_rbm(3, 3, 1);
  const OperatorAnalysis result = analyse_operator(rbm, parse_operator_specification("flip"));
  EXPECT_EQ(result.representation, "dense");
  EXPECT_EQ(result.states, 64U);
  EXPECT_LT(result.stationarity_residual, kStochasticTolerance);
  EXPECT_TRUE(result.ergodicity.ergodic());
  EXPECT_DOUBLE_EQ(result.slem.slem, dense_slem(sweep_transition_matrix(rbm, FlipTheStateRule{})).slem);
  ASSERT_TRUE(result.energy_autocorrelation_time.has_value());
  ASSERT_TRUE(result.layer_detailed_balance_error.has_value());
}

TEST(OperatorAnalysis, MatrixFreePathBeyondTheDenseLimit) {
  const Rbm rbm = random_rbm(6, 5, 2);
  for (const char* name : {"gibbs", "flip"}) {
    const OperatorAnalysis result = analyse_operator(rbm, parse_operator_specification(name), 0.8);
    EXPECT_EQ(result.representation, "matrix-free");
    EXPECT_EQ(result.states, 2048U);
    EXPECT_LT(result.stationarity_residual, kStochasticTolerance);
    EXPECT_LT(result.row_sum_error, kStochasticTolerance);
    EXPECT_TRUE(result.ergodicity.ergodic());
    EXPECT_TRUE(result.slem.converged);
    EXPECT_GT(result.slem.slem, 0.0);
    EXPECT_LT(result.slem.slem, 1.0);
    EXPECT_TRUE(result.energy_autocorrelation_time.has_value());
  }
  EXPECT_THROW(analyse_operator(rbm, parse_operator_specification("modified:gibbs")), InputError);
}

// The progress hook sees every stage in order, and the matrix-free stages count exactly the passes the solvers made
// (none for Gibbs beyond the dense limit, which goes through its reduced chain).
TEST(OperatorAnalysis, ReportsItsStagesAndTheMatrixFreePasses) {
  for (const auto& [m, n] : {std::pair{3, 3}, std::pair{6, 5}}) {
    for (const char* name : {"gibbs", "flip"}) {
      const Rbm rbm = random_rbm(m, n, 3);
      std::vector<int> stages;
      int slem_reports = 0;
      const OperatorAnalysis result =
          analyse_operator(rbm, parse_operator_specification(name), 1.0, [&](int stage, const std::string& note) {
            if (stages.empty() || stages.back() != stage) stages.push_back(stage);
            if (note.starts_with("SLEM (Arnoldi), ")) ++slem_reports;
          });
      EXPECT_EQ(stages, (std::vector<int>{0, 1, 2, 3, 4}));
      EXPECT_EQ(slem_reports, result.slem.method == "matrix-free" ? result.slem.operator_applications : 0);
      EXPECT_EQ(result.slem.slem, analyse_operator(rbm, parse_operator_specification(name)).slem.slem);
    }
  }
}

// Beyond the dense limit Gibbs goes through the chain on its smaller layer (docs/algorithms/operators.md §2.5); its
// SLEM and energy τ are those of the matrix-free route on all joint states (Arnoldi to 1e-12, the lag series to 1e-13).
TEST(OperatorAnalysis, GibbsBeyondTheDenseLimitGoesThroughTheSmallerLayer) {
  constexpr double kMatrixFreeAgreement = 1e-9;
  for (const auto& [m, n] : {std::pair{6, 5}, std::pair{4, 7}}) {
    const Rbm rbm = random_rbm(m, n, 5);
    const OperatorAnalysis result = analyse_operator(rbm, parse_operator_specification("gibbs"));
    EXPECT_EQ(result.slem.method, n < m ? "through the hidden chain" : "through the visible chain");
    const JointStateSpace space(rbm);
    const VectorD stationary = space.stationary_distribution(rbm);
    const SweepOperator op(rbm, GibbsRule{});
    const SlemResult arnoldi = matrix_free_slem(op, stationary);
    ASSERT_TRUE(arnoldi.converged);
    EXPECT_NEAR(result.slem.slem, arnoldi.slem, kMatrixFreeAgreement * arnoldi.slem);
    const AutocorrelationSeriesResult series =
        integrated_autocorrelation_time_by_series(op, stationary, space.energies(rbm));
    ASSERT_TRUE(series.converged);
    ASSERT_TRUE(result.energy_autocorrelation_time.has_value());
    EXPECT_NEAR(*result.energy_autocorrelation_time, series.autocorrelation_time,
                kMatrixFreeAgreement * series.autocorrelation_time);
  }
}

// Gibbs at weights so large that its probabilities round to 0 and 1 is still ergodic beyond the dense limit: the
// structural tables decide (unit_transition_table.hpp), not the rounded ones; the reduced chain is then singular
// in double precision, so τ is reported unavailable, as on the dense path.
TEST(OperatorAnalysis, GibbsWithRoundedProbabilitiesIsStillErgodicBeyondTheDenseLimit) {
  Rbm rbm = random_rbm(6, 5, 6);
  rbm.weights *= 2000.0;
  const OperatorAnalysis result = analyse_operator(rbm, parse_operator_specification("gibbs"));
  ASSERT_EQ(unit_transition_table(rbm, GibbsRule{}, Layer::hidden).from_zero.maxCoeff(), 1.0);
  EXPECT_TRUE(result.ergodicity.ergodic());
  EXPECT_FALSE(result.energy_autocorrelation_time.has_value());
  ASSERT_TRUE(result.energy_autocorrelation_time_unavailable.has_value());
  EXPECT_TRUE(result.energy_autocorrelation_time_unavailable->starts_with("numerically non-ergodic"));
}

// A periodic chain reports SLEM 1 (|μ| = 1 is not simple) on either path.
TEST(OperatorAnalysis, NaiveFlipWithoutParametersHasSlemOne) {
  for (const auto& [m, n] : {std::pair{2, 2}, std::pair{6, 5}}) {
    const OperatorAnalysis result = analyse_operator(Rbm(m, n), parse_operator_specification("naive"));
    EXPECT_FALSE(result.ergodicity.irreducible);
    EXPECT_EQ(result.ergodicity.period, 2U);
    EXPECT_EQ(result.slem.slem, 1.0);
  }
}

}  // namespace
}  // namespace rbmix::analysis
