#include "rbmix/model/exact.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "rbmix/random/random_stream.hpp"
#include "rbmix/verify/generators.hpp"
#include "support/brute_force.hpp"

namespace rbmix {
namespace {

// Gray-code enumeration with log-sum-exp in double against brute force in long double: the only differences are
// rounding in sums of at most 2^16 terms of moderate size.
constexpr double kLogPartitionTolerance = 1e-10;
// Central differences with step 1e-5 have truncation error O(h²·f''') ≈ 1e-10 and rounding error ≈ 1e-16/h.
constexpr double kFiniteDifferenceStep = 1e-5;
constexpr double kFiniteDifferenceTolerance = 1e-7;

MatrixD all_visible_states(Eigen::Index units) {
  MatrixD states(Eigen::Index{1} << units, units);
  for (Eigen::Index k = 0; k < states.rows(); ++k)
    states.row(k) = testing::bits_of(static_cast<std::uint64_t>(k), units);
  return states;
}

RC_GTEST_PROP(ExactLogPartition, MatchesBruteForceOverAllJointStates, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(6, 3.0);
  const double expected = static_cast<double>(testing::brute_force_log_partition(rbm));
  RC_ASSERT(std::abs(exact_log_partition(rbm) - expected) < kLogPartitionTolerance * std::max(1.0, std::abs(expected)));
}

RC_GTEST_PROP(ExactLogPartition, EnumeratedLayerDoesNotChangeTheAnswer, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(8, 3.0);
  const double by_visible = exact_log_partition(rbm, EnumeratedLayer::visible);
  const double by_hidden = exact_log_partition(rbm, EnumeratedLayer::hidden);
  RC_ASSERT(std::abs(by_visible - by_hidden) < kLogPartitionTolerance * std::max(1.0, std::abs(by_hidden)));
}

RC_GTEST_PROP(ExactLogProbability, SumsToOneOverAllVisibleStates, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(6, 3.0);
  const VectorD log_p = exact_log_probability(rbm, all_visible_states(rbm.n_visible()), exact_log_partition(rbm));
  RC_ASSERT(std::abs(log_p.array().exp().sum() - 1.0) < 1e-12);
  // And each p(v) equals the brute-force marginal Σ_h p(v, h).
  const VectorD marginal = testing::brute_force_visible_marginal(rbm);
  RC_ASSERT((log_p.array().exp() - marginal.array()).abs().maxCoeff() < 1e-12);
}

TEST(ExactLogPartition, StaysFiniteAndAccurateForLargeWeights) {
  // |w| ~ 50: e^{50·m} overflows double without log-sum-exp; brute force in long double is the reference.
  RandomStream stream(7, 0, StreamDomain::experiment);
  for (int trial = 0; trial < 20; ++trial) {
    Rbm rbm(5, 4);
    rbm.weights = MatrixD::NullaryExpr(4, 5, [&] { return 100.0 * stream.uniform() - 50.0; });
    rbm.visible_bias = VectorD::NullaryExpr(5, [&] { return 100.0 * stream.uniform() - 50.0; });
    rbm.hidden_bias = VectorD::NullaryExpr(4, [&] { return 100.0 * stream.uniform() - 50.0; });
    const double expected = static_cast<double>(testing::brute_force_log_partition(rbm));
    for (auto layer : {EnumeratedLayer::visible, EnumeratedLayer::hidden}) {
      const double value = exact_log_partition(rbm, layer);
      ASSERT_TRUE(std::isfinite(value));
      EXPECT_NEAR(value, expected, 1e-12 * std::abs(expected));
    }
  }
}

// The factored enumeration (exponentials of two parts multiplied) against the plain one (an exponential per unit and
// state) on random models with 3 to 14 enumerated units (fewer and more than the five tabled low units) and
// 1 to 100 other units (partial and whole lanes of 8). Both are log-sum-exps of the same 2^n terms, each term a sum
// of up to 100 softplus values of moderate size computed in two roundings-different ways: they agree to a few
// hundred ulps of log Z.
constexpr double kFactoredTolerance = 1e-12;

Rbm uniform_rbm(Eigen::Index visible, Eigen::Index hidden, double range, RandomStream& stream) {
  Rbm rbm(visible, hidden);
  const auto draw = [&] { return range * (2.0 * stream.uniform() - 1.0); };
  rbm.weights = MatrixD::NullaryExpr(hidden, visible, draw);
  rbm.visible_bias = VectorD::NullaryExpr(visible, draw);
  rbm.hidden_bias = VectorD::NullaryExpr(hidden, draw);
  return rbm;
}

TEST(ExactLogPartition, FactoredEnumerationEqualsThePlainOne) {
  RandomStream stream(11, 0, StreamDomain::experiment);
  for (int trial = 0; trial < 12; ++trial) {
    const Eigen::Index hidden = 3 + trial;
    const Eigen::Index visible = 1 + (trial * 37) % 100;
    const Rbm rbm = uniform_rbm(visible, hidden, 1.5, stream);
    const double factored = exact_log_partition(rbm, EnumeratedLayer::hidden);
    const double plain = exact_log_partition(rbm, EnumeratedLayer::hidden, PartitionEnumeration::plain);
    EXPECT_NEAR(factored, plain, kFactoredTolerance * std::abs(plain)) << visible << " x " << hidden;
  }
}

// Inputs that could reach 700 in magnitude would overflow the factored products: such models take the plain
// enumeration, bit for bit. Here visible unit 0 has bias −1000 and weight 200 from each of the five low hidden
// units: with all five on, its input is 0 while e^{A_high} = e^{−1000} rounds to 0 and e^{A_low} = e^{1000} to ∞,
// whose product is NaN.
TEST(ExactLogPartition, HugeInputsTakeThePlainEnumeration) {
  RandomStream stream(12, 0, StreamDomain::experiment);
  Rbm rbm = uniform_rbm(4, 6, 1.0, stream);
  rbm.visible_bias(0) = -1000.0;
  rbm.weights.col(0).head(5).setConstant(200.0);
  const double value = exact_log_partition(rbm, EnumeratedLayer::hidden);
  EXPECT_EQ(value, exact_log_partition(rbm, EnumeratedLayer::hidden, PartitionEnumeration::plain));
  EXPECT_TRUE(std::isfinite(value));
}

TEST(ExactLogPartition, ZeroModelHasLogTwoPerUnit) {
  const Rbm rbm(7, 5);
  EXPECT_NEAR(exact_log_partition(rbm), 12 * std::log(2.0), 1e-13);
}

TEST(ExactLogPartition, RejectsNonFiniteParameters) {
  Rbm rbm(3, 2);
  rbm.weights(1, 2) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(exact_log_partition(rbm), InputError);
}

// One visible bias of 1e308: log Z ≈ 1e308 is finite, and so is each row's log p (0 with that unit on, ≈ −1e308
// with it off), but the sum of four rows of −1e308 overflows: the average is −1e308 · (rows off) / (rows), finite.
TEST(ExactAverageLogLikelihood, StaysFiniteWhereTheSumOfRowsOverflows) {
  Rbm rbm(2, 1);
  rbm.visible_bias[0] = 1e308;
  MatrixD data = MatrixD::Zero(8, 2);
  data.topRows(4).col(0).setOnes();
  const double log_partition = exact_log_partition(rbm);
  ASSERT_TRUE(std::isfinite(log_partition));
  const VectorD log_p = exact_log_probability(rbm, data, log_partition);
  ASSERT_TRUE(log_p.allFinite());
  const double average = exact_average_log_likelihood(rbm, data, log_partition);
  ASSERT_TRUE(std::isfinite(average)) << average;
  EXPECT_NEAR(average, 0.5 * log_p[7], 1e-12 * std::abs(log_p[7]));
  // Where the sum does not overflow, the average is the plain mean, bit for bit.
  const MatrixD ordinary = data.bottomRows(4);
  EXPECT_EQ(exact_average_log_likelihood(Rbm(2, 1), ordinary, exact_log_partition(Rbm(2, 1))),
            exact_log_probability(Rbm(2, 1), ordinary, exact_log_partition(Rbm(2, 1))).mean());
}

RC_GTEST_PROP(ExactGradient, MatchesFiniteDifferencesOfTheAverageLogLikelihood, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(5, 1.5);
  const auto rows = *rc::gen::inRange(1, 6);
  MatrixD data(rows, rbm.n_visible());
  for (Eigen::Index r = 0; r < rows; ++r)
    data.row(r) =
        testing::bits_of(*rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << rbm.n_visible()), rbm.n_visible());
  const Rbm gradient = exact_log_likelihood_gradient(rbm, data);
  const auto objective = [&](const Rbm& model) {
    return exact_average_log_likelihood(model, data, exact_log_partition(model));
  };
  const auto check = [&](auto select) {
    Rbm plus = rbm, minus = rbm;
    select(plus) += kFiniteDifferenceStep;
    select(minus) -= kFiniteDifferenceStep;
    const double numeric = (objective(plus) - objective(minus)) / (2 * kFiniteDifferenceStep);
    Rbm copy = gradient;
    RC_ASSERT(std::abs(numeric - select(copy)) < kFiniteDifferenceTolerance);
  };
  const auto i = *rc::gen::inRange<Eigen::Index>(0, rbm.n_hidden());
  const auto j = *rc::gen::inRange<Eigen::Index>(0, rbm.n_visible());
  check([&](Rbm& model) -> double& { return model.weights(i, j); });
  check([&](Rbm& model) -> double& { return model.visible_bias[j]; });
  check([&](Rbm& model) -> double& { return model.hidden_bias[i]; });
}

}  // namespace
}  // namespace rbmix
