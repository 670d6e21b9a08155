#include "rbmix/analysis/factorised_sweep.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <iomanip>

#include "rbmix/analysis/exact_autocorrelation_time.hpp"
#include "rbmix/analysis/stationarity.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/model/tempering.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/verify/generators.hpp"

namespace rbmix::analysis {
namespace {

// The reduced route and the dense one on all 2^{m+n} states compute the same numbers by different sums and
// factorisations of ≤ 2^10-state matrices with entries in [0, 1]: their rounding differs by far less than this
// relative bound, plus an absolute one for the eigenvalues, which both solvers find to within a few hundred ε of
// ‖K‖ = 1 (a 1 + 1 RBM with SLEM 1.2e-4 showed 1.4e-14).
constexpr double kAgreement = 1e-10;
constexpr double kEigenvalueRounding = 1e-13;
// The dense nonsymmetric eigenvalues of K that are 0 can be defective and come out near √ε ≈ 1e-8: below this
// SLEM the dense route is not an independent answer (the reduced chain has no such eigenvalues).
constexpr double kSmallestComparableSlem = 1e-6;
// Row sums and stationarity of a product of two ≤ 2^6-state stochastic matrices: a few rounding errors per entry.
constexpr double kStochasticTolerance = 1e-13;

double relative_difference(double a, double b) { return std::abs(a - b) / std::max(std::abs(a), std::abs(b)); }

Rbm random_rbm(int n_visible, int n_hidden, std::uint64_t seed) {
  RandomStream stream(seed, 0, StreamDomain::experiment);
  Rbm rbm(n_visible, n_hidden);
  rbm.weights = MatrixD::NullaryExpr(n_hidden, n_visible, [&] { return 2.0 * stream.uniform() - 1.0; });
  rbm.visible_bias = VectorD::NullaryExpr(n_visible, [&] { return stream.uniform() - 0.5; });
  rbm.hidden_bias = VectorD::NullaryExpr(n_hidden, [&] { return stream.uniform() - 0.5; });
  return rbm;
}

// The SLEM and the energy τ by the reduced chain and by the dense route on the whole joint space.
struct Routes {
  double reduced_slem = 0.0;
  double dense_slem = 0.0;
  std::optional<double> reduced_time;
  std::optional<double> dense_time;
  // Both routes give both figures and agree to kAgreement.
  bool agree() const {
    return std::abs(reduced_slem - dense_slem) < kAgreement * dense_slem + kEigenvalueRounding && reduced_time &&
           dense_time && relative_difference(*reduced_time, *dense_time) < kAgreement;
  }
};

Routes both_routes(const Rbm& rbm, double beta) {
  const FactorisedSweep factorised(rbm, GibbsRule{}, beta);
  const MatrixD sweep = sweep_transition_matrix(rbm, GibbsRule{}, beta);
  const JointStateSpace space(rbm);
  const Rbm model = tempered(rbm, beta);
  const VectorD stationary = space.stationary_distribution(model);
  const VectorD energy = space.energies(model);
  return {factorised.slem().slem, dense_slem(sweep).slem,
          factorised.try_integrated_autocorrelation_time(stationary, energy),
          try_exact_integrated_autocorrelation_time(sweep, stationary, energy)};
}

RC_GTEST_PROP(FactorisedSweep, SlemAndEnergyTimeEqualThoseOfTheWholeSweep, ()) {
  const int n_visible = *rc::gen::inRange(1, 6);
  const int n_hidden = *rc::gen::inRange(1, 6);
  const Rbm rbm = *verify::arbitrary_rbm(n_visible, n_hidden, 2.0);
  const Routes routes = both_routes(rbm, *rc::gen::element(1.0, 0.5));
  RC_PRE(routes.dense_slem > kSmallestComparableSlem);
  RC_LOG() << std::setprecision(17) << "W = " << rbm.weights << ", b = " << rbm.visible_bias.transpose()
           << ", c = " << rbm.hidden_bias.transpose() << ": SLEM " << routes.reduced_slem << " against "
           << routes.dense_slem << ", τ " << routes.reduced_time.value_or(-1.0) << " against "
           << routes.dense_time.value_or(-1.0) << "\n";
  RC_ASSERT(routes.agree());
}

// The sizes of the brief cases: a tie (the visible chain) and either layer the smaller.
TEST(FactorisedSweep, AgreesWithTheWholeSweepOnUnequalLayers) {
  for (const auto& [m, n] : {std::pair{3, 3}, std::pair{4, 5}, std::pair{6, 4}}) {
    const Rbm rbm = random_rbm(m, n, static_cast<std::uint64_t>(10 * m + n));
    const FactorisedSweep factorised(rbm, GibbsRule{});
    EXPECT_EQ(factorised.reduced_layer(), n < m ? Layer::hidden : Layer::visible);
    EXPECT_EQ(factorised.slem().method, n < m ? "through the hidden chain" : "through the visible chain");
    const Routes routes = both_routes(rbm, 1.0);
    EXPECT_TRUE(routes.agree()) << m << " + " << n << ": SLEM " << routes.reduced_slem << " against "
                                << routes.dense_slem << ", τ " << routes.reduced_time.value_or(-1.0) << " against "
                                << routes.dense_time.value_or(-1.0);
  }
}

// The reduced chain is a stochastic matrix with the layer's marginal of π stationary and, symmetrised, reversible.
TEST(FactorisedSweep, ReducedChainIsStochasticWithTheMarginalStationary) {
  for (const auto& [m, n] : {std::pair{5, 3}, std::pair{3, 5}}) {
    const Rbm rbm = random_rbm(m, n, 7);
    const FactorisedSweep factorised(rbm, GibbsRule{});
    const MatrixD chain = factorised.reduced_chain();
    const JointStateSpace space(rbm);
    const VectorD stationary = space.stationary_distribution(rbm);
    const Eigen::Map<const Eigen::MatrixXd> joint(stationary.data(), static_cast<Eigen::Index>(space.visible_states()),
                                                  static_cast<Eigen::Index>(space.hidden_states()));
    const VectorD marginal = factorised.reduced_layer() == Layer::visible ? VectorD(joint.rowwise().sum())
                                                                          : VectorD(joint.colwise().sum().transpose());
    ASSERT_EQ(chain.rows(), Eigen::Index{1} << std::min(m, n));
    EXPECT_LT((chain.rowwise().sum().array() - 1.0).abs().maxCoeff(), kStochasticTolerance);
    EXPECT_LT((chain.transpose() * marginal - marginal).cwiseAbs().sum(), kStochasticTolerance);
    EXPECT_LT(detailed_balance_error(chain, marginal), kStochasticTolerance);
  }
}

// W = 0: one Gibbs sweep draws an independent state, so every eigenvalue but 1 is 0 (docs/algorithms/operators.md
// §2.6), and the energy's τ is 1.
TEST(FactorisedSweep, WithoutWeightsTheSweepForgetsEverything) {
  Rbm rbm(4, 2);
  rbm.visible_bias << 0.5, -1.0, 0.0, 2.0;
  rbm.hidden_bias << 1.0, -0.25;
  const FactorisedSweep factorised(rbm, GibbsRule{});
  EXPECT_LT(factorised.slem().slem, kStochasticTolerance);
  const JointStateSpace space(rbm);
  const std::optional<double> time =
      factorised.try_integrated_autocorrelation_time(space.stationary_distribution(rbm), space.energies(rbm));
  ASSERT_TRUE(time.has_value());
  EXPECT_NEAR(*time, 1.0, kStochasticTolerance);
}

// Only a rule that ignores the current state factorises: flip-the-state and the mixtures keep it.
TEST(FactorisedSweep, OnlyRulesThatIgnoreTheCurrentStateFactorise) {
  const Rbm rbm = random_rbm(3, 2, 4);
  const auto factorises = [&](const UnitRule& rule) {
    return FactorisedSweep::factorises(unit_transition_table(rbm, rule, Layer::hidden),
                                       unit_transition_table(rbm, rule, Layer::visible));
  };
  EXPECT_TRUE(factorises(GibbsRule{}));
  EXPECT_FALSE(factorises(FlipTheStateRule{}));
  EXPECT_FALSE(factorises(parse_unit_rule("mix:0.5")));
  EXPECT_THROW(FactorisedSweep(rbm, FlipTheStateRule{}), InputError);
  const VectorD stationary = JointStateSpace(rbm).stationary_distribution(rbm);
  EXPECT_THROW(FactorisedSweep(rbm, GibbsRule{})
                   .try_integrated_autocorrelation_time(stationary, VectorD::Ones(stationary.size())),
               InputError);
}

}  // namespace
}  // namespace rbmix::analysis
