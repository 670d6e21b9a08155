#include "rbmix/model/rbm.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "rbmix/verify/generators.hpp"
#include "support/brute_force.hpp"
#include "support/input_error_message.hpp"

namespace rbmix {
namespace {

// Library sums in double against term-by-term sums in long double, over at most 4 + 4·4 terms of size ≤ 3·4: the
// difference is rounding, a few ulps of the largest term.
constexpr double kEnumerationTolerance = 1e-12;
// Float evaluation of the same model against double: float's 6e-8 unit roundoff times the sums' ~50 magnitude.
constexpr double kFloatTolerance = 1e-4;
// softplus against closed forms: a handful of roundings (exp, log1p, the reference's own), each ≤ 1.1e-16.
constexpr double kSoftplusRelativeTolerance = 1e-15;
constexpr float kSoftplusFloatRelativeTolerance = 4e-7F;

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// All 2^units layer states as rows, row k holding the bits of k.
MatrixD all_states(Eigen::Index units) {
  MatrixD states(Eigen::Index{1} << units, units);
  for (Eigen::Index k = 0; k < states.rows(); ++k)
    states.row(k) = testing::bits_of(static_cast<std::uint64_t>(k), units);
  return states;
}

// log Σ_h e^{−E(v,h)} and Σ_{h: h_i = 1} e^{−E(v,h)} / Σ_h e^{−E(v,h)} by enumerating h (or the same over v, with the
// roles swapped); long double and a shift by the largest term keep it exact enough and finite.
struct EnumeratedLayer {
  long double log_sum;
  std::vector<double> unit_probabilities;
};
EnumeratedLayer enumerate_hidden(const Rbm& rbm, const Eigen::RowVectorXd& v) {
  const Eigen::Index n = rbm.n_hidden();
  std::vector<long double> log_weights;
  for (std::uint64_t h = 0; h < (std::uint64_t{1} << n); ++h)
    log_weights.push_back(-testing::brute_force_energy(rbm, v, testing::bits_of(h, n)));
  long double max = log_weights.front();
  for (long double w : log_weights) max = std::max(max, w);
  long double total = 0;
  std::vector<long double> on(static_cast<std::size_t>(n), 0.0L);
  for (std::uint64_t h = 0; h < log_weights.size(); ++h) {
    const long double weight = std::exp(log_weights[h] - max);
    total += weight;
    for (Eigen::Index i = 0; i < n; ++i)
      if ((h >> i) & 1U) on[static_cast<std::size_t>(i)] += weight;
  }
  EnumeratedLayer out{max + std::log(total), {}};
  for (long double weight : on) out.unit_probabilities.push_back(static_cast<double>(weight / total));
  return out;
}
EnumeratedLayer enumerate_visible(const Rbm& rbm, const Eigen::RowVectorXd& h) {
  const Eigen::Index m = rbm.n_visible();
  std::vector<long double> log_weights;
  for (std::uint64_t v = 0; v < (std::uint64_t{1} << m); ++v)
    log_weights.push_back(-testing::brute_force_energy(rbm, testing::bits_of(v, m), h));
  long double max = log_weights.front();
  for (long double w : log_weights) max = std::max(max, w);
  long double total = 0;
  std::vector<long double> on(static_cast<std::size_t>(m), 0.0L);
  for (std::uint64_t v = 0; v < log_weights.size(); ++v) {
    const long double weight = std::exp(log_weights[v] - max);
    total += weight;
    for (Eigen::Index j = 0; j < m; ++j)
      if ((v >> j) & 1U) on[static_cast<std::size_t>(j)] += weight;
  }
  EnumeratedLayer out{max + std::log(total), {}};
  for (long double weight : on) out.unit_probabilities.push_back(static_cast<double>(weight / total));
  return out;
}

using testing::input_error_message;

TEST(Rbm, ConstructedWithZeroParametersInTheDocumentedShapes) {
  const Rbm rbm(5, 3);
  EXPECT_EQ(rbm.n_visible(), 5);
  EXPECT_EQ(rbm.n_hidden(), 3);
  EXPECT_EQ(rbm.weights.rows(), 3);  // W is n_hidden × n_visible
  EXPECT_EQ(rbm.weights.cols(), 5);
  EXPECT_TRUE(rbm.weights.isZero(0));
  EXPECT_TRUE(rbm.visible_bias.isZero(0));
  EXPECT_TRUE(rbm.hidden_bias.isZero(0));
}

// Every (v, h) pair of a tiny model at once: one batch row per pair.
RC_GTEST_PROP(Rbm, EnergyMatchesTheDefinitionTermByTerm, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(4, 3.0);
  const MatrixD visible_states = all_states(rbm.n_visible()), hidden_states = all_states(rbm.n_hidden());
  MatrixD visible(visible_states.rows() * hidden_states.rows(), rbm.n_visible());
  MatrixD hidden(visible.rows(), rbm.n_hidden());
  for (Eigen::Index v = 0; v < visible_states.rows(); ++v)
    for (Eigen::Index h = 0; h < hidden_states.rows(); ++h) {
      visible.row(v * hidden_states.rows() + h) = visible_states.row(v);
      hidden.row(v * hidden_states.rows() + h) = hidden_states.row(h);
    }
  const VectorD energy = rbm.energy(visible, hidden);
  RC_ASSERT(energy.size() == visible.rows());
  for (Eigen::Index row = 0; row < visible.rows(); ++row) {
    const auto expected = static_cast<double>(testing::brute_force_energy(rbm, visible.row(row), hidden.row(row)));
    RC_ASSERT(std::abs(energy[row] - expected) < kEnumerationTolerance);
  }
}

// F(v) = −log Σ_h e^{−E(v,h)}, the definition the closed form −bᵀv − Σ softplus(c_i + W_i·v) must reproduce.
RC_GTEST_PROP(Rbm, FreeEnergyIsMinusTheLogSumOverHiddenStates, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(4, 3.0);
  const MatrixD visible = all_states(rbm.n_visible());
  const VectorD free_energy = rbm.free_energy(visible);
  RC_ASSERT(free_energy.size() == visible.rows());
  for (Eigen::Index v = 0; v < visible.rows(); ++v) {
    const auto expected = static_cast<double>(-enumerate_hidden(rbm, visible.row(v)).log_sum);
    RC_ASSERT(std::abs(free_energy[v] - expected) < kEnumerationTolerance);
  }
}

RC_GTEST_PROP(Rbm, HiddenProbabilitiesMatchTheEnumeratedConditional, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(4, 3.0);
  const MatrixD visible = all_states(rbm.n_visible());
  const MatrixD probabilities = rbm.hidden_probabilities(visible);
  RC_ASSERT(probabilities.rows() == visible.rows());
  RC_ASSERT(probabilities.cols() == rbm.n_hidden());
  for (Eigen::Index v = 0; v < visible.rows(); ++v) {
    const auto expected = enumerate_hidden(rbm, visible.row(v)).unit_probabilities;
    for (Eigen::Index i = 0; i < rbm.n_hidden(); ++i)
      RC_ASSERT(std::abs(probabilities(v, i) - expected[static_cast<std::size_t>(i)]) < kEnumerationTolerance);
  }
}

RC_GTEST_PROP(Rbm, VisibleProbabilitiesMatchTheEnumeratedConditional, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(4, 3.0);
  const MatrixD hidden = all_states(rbm.n_hidden());
  const MatrixD probabilities = rbm.visible_probabilities(hidden);
  RC_ASSERT(probabilities.rows() == hidden.rows());
  RC_ASSERT(probabilities.cols() == rbm.n_visible());
  for (Eigen::Index h = 0; h < hidden.rows(); ++h) {
    const auto expected = enumerate_visible(rbm, hidden.row(h)).unit_probabilities;
    for (Eigen::Index j = 0; j < rbm.n_visible(); ++j)
      RC_ASSERT(std::abs(probabilities(h, j) - expected[static_cast<std::size_t>(j)]) < kEnumerationTolerance);
  }
}

// Data sets are stored as bytes; the batched functions take them directly.
TEST(Rbm, ByteBatchesGiveTheSameValuesAsRealBatches) {
  Rbm rbm(3, 2);
  rbm.weights << 0.5, -1.0, 2.0, 1.5, 0.25, -0.75;
  rbm.visible_bias << 0.1, -0.2, 0.3;
  rbm.hidden_bias << -0.4, 0.6;
  BinaryMatrix bytes(2, 3);
  bytes << 1, 0, 1, 0, 1, 1;
  const MatrixD reals = bytes.cast<double>();
  BinaryMatrix hidden_bytes(2, 2);
  hidden_bytes << 1, 0, 1, 1;
  EXPECT_EQ(rbm.free_energy(bytes), rbm.free_energy(reals));
  EXPECT_EQ(rbm.hidden_probabilities(bytes), rbm.hidden_probabilities(reals));
  EXPECT_EQ(rbm.visible_probabilities(hidden_bytes), rbm.visible_probabilities(MatrixD(hidden_bytes.cast<double>())));
  EXPECT_EQ(rbm.energy(bytes, hidden_bytes), rbm.energy(reals, MatrixD(hidden_bytes.cast<double>())));
}

// Inputs of ±1000 overflow e^x: the free energy must stay finite and exact. One visible and one hidden unit:
// F(v) = −b v − softplus(c + w v).
TEST(Rbm, FreeEnergyStaysExactForHugeInputs) {
  Rbm rbm(1, 1);
  rbm.weights << 2000.0;
  rbm.hidden_bias << -1000.0;
  MatrixD visible(2, 1);
  visible << 0.0, 1.0;
  const VectorD free_energy = rbm.free_energy(visible);
  EXPECT_EQ(free_energy[0], 0.0);  // −softplus(−1000) = −e^{−1000}, below the smallest double
  EXPECT_EQ(free_energy[1], -1000.0);
  // The conditionals saturate cleanly instead of becoming NaN.
  const MatrixD probabilities = rbm.hidden_probabilities(visible);
  EXPECT_EQ(probabilities(0, 0), 0.0);
  EXPECT_EQ(probabilities(1, 0), 1.0);
}

RC_GTEST_PROP(Rbm, FloatModelAgreesWithTheDoubleModel, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(4, 3.0);
  const RbmF single = rbm.cast<float>();
  RC_ASSERT(single.n_visible() == rbm.n_visible());
  RC_ASSERT(single.n_hidden() == rbm.n_hidden());
  const MatrixD visible = all_states(rbm.n_visible());
  const VectorF free_energy = single.free_energy(visible);
  RC_ASSERT((free_energy.cast<double>() - rbm.free_energy(visible)).cwiseAbs().maxCoeff() < kFloatTolerance);
  RC_ASSERT(
      (single.hidden_probabilities(visible).cast<double>() - rbm.hidden_probabilities(visible)).cwiseAbs().maxCoeff() <
      kFloatTolerance);
}

TEST(Softplus, MatchesClosedFormsAcrossTheRange) {
  EXPECT_NEAR(softplus(0.0), std::log(2.0), kSoftplusRelativeTolerance);
  EXPECT_NEAR(softplus(1.0), std::log(1.0 + std::exp(1.0)), kSoftplusRelativeTolerance);
  // log(1 + e^x) for x = −30 is e^x − e^{2x}/2 + …; 1 + e^{−30} would lose 3 of its 16 digits.
  EXPECT_NEAR(softplus(-30.0), std::exp(-30.0) - std::exp(-60.0) / 2, kSoftplusRelativeTolerance * std::exp(-30.0));
  // −700: e^x is still a normal double but 1 + e^x is exactly 1.
  EXPECT_NEAR(softplus(-700.0), std::exp(-700.0), kSoftplusRelativeTolerance * std::exp(-700.0));
  EXPECT_GT(softplus(-700.0), 0.0);
  // x + log(1 + e^{−x}) with e^{−40} below half an ulp of 40.
  EXPECT_EQ(softplus(40.0), 40.0);
}

TEST(Softplus, DoesNotOverflowForHugeInputs) {
  EXPECT_EQ(softplus(1000.0), 1000.0);
  EXPECT_EQ(softplus(-1000.0), 0.0);
  EXPECT_EQ(softplus(std::numeric_limits<double>::max()), std::numeric_limits<double>::max());
  EXPECT_EQ(softplus(100.0F), 100.0F);  // e^100 overflows float
  EXPECT_EQ(softplus(-1000.0F), 0.0F);
  EXPECT_NEAR(softplus(-80.0F), std::exp(-80.0F), kSoftplusFloatRelativeTolerance * std::exp(-80.0F));
}

TEST(Softplus, InfinitiesAndNaN) {
  EXPECT_EQ(softplus(kInfinity), kInfinity);
  EXPECT_EQ(softplus(-kInfinity), 0.0);
  EXPECT_TRUE(std::isnan(softplus(kNaN)));
}

// softplus(x) − softplus(−x) = x for every x, which pins both branches against each other.
RC_GTEST_PROP(Softplus, DifferenceOfMirroredArgumentsIsTheArgument, ()) {
  const double x = *rc::gen::inRange(-50000, 50001) / 1000.0;
  RC_ASSERT(std::abs(softplus(x) - softplus(-x) - x) < 4 * kSoftplusRelativeTolerance * std::max(1.0, std::abs(x)));
}

// The vectorised form is the same function, including at the extremes.
RC_GTEST_PROP(Softplus, ArrayFormMatchesTheScalarForm, ()) {
  const auto values = *rc::gen::container<std::vector<int>>(rc::gen::inRange(-800000, 800001));
  Eigen::ArrayXd x(static_cast<Eigen::Index>(values.size() + 4));
  for (std::size_t k = 0; k < values.size(); ++k) x[static_cast<Eigen::Index>(k)] = values[k] / 1000.0;
  x.tail(4) << 1000.0, -1000.0, 0.0, -30.0;
  const Eigen::ArrayXd array_form = softplus_array(x);
  for (Eigen::Index k = 0; k < x.size(); ++k)
    RC_ASSERT(std::abs(array_form[k] - softplus(x[k])) <=
              kSoftplusRelativeTolerance * std::max(1e-300, softplus(x[k])) * 4);
}

// d/dx softplus(x) = σ(x): the logistic function is the derivative of softplus, checked by central differences.
RC_GTEST_PROP(LogisticArray, IsTheDerivativeOfSoftplus, ()) {
  constexpr double kStep = 1e-5;
  // Truncation O(h²·|σ''|) ≈ 1e-11, rounding ≈ 1e-16·|x|/h ≤ 1e-10 for |x| ≤ 10.
  constexpr double kDerivativeTolerance = 1e-9;
  const double x = *rc::gen::inRange(-10000, 10001) / 1000.0;
  const double central_difference = (softplus(x + kStep) - softplus(x - kStep)) / (2 * kStep);
  const Eigen::ArrayXd logistic = logistic_array(Eigen::ArrayXd::Constant(1, x));
  RC_ASSERT(std::abs(logistic[0] - central_difference) < kDerivativeTolerance);
}

TEST(LogisticArray, SaturatesWithoutNaNAndIsSymmetric) {
  Eigen::ArrayXd x(5);
  x << -1000.0, -1.0, 0.0, 1.0, 1000.0;
  const Eigen::ArrayXd sigma = logistic_array(x);
  EXPECT_EQ(sigma[0], 0.0);
  EXPECT_EQ(sigma[2], 0.5);
  EXPECT_EQ(sigma[4], 1.0);
  EXPECT_NEAR(sigma[1] + sigma[3], 1.0, 1e-16);
  EXPECT_NEAR(sigma[3], 1.0 / (1.0 + std::exp(-1.0)), 1e-16);
}

TEST(RbmValidate, AcceptsAConsistentFiniteModel) {
  Rbm rbm(3, 2);
  rbm.weights.setConstant(1e300);
  EXPECT_NO_THROW(rbm.validate());
}

TEST(RbmValidate, NamesAVisibleBiasOfTheWrongLength) {
  Rbm rbm(3, 2);
  rbm.visible_bias = VectorD::Zero(2);
  EXPECT_EQ(input_error_message([&] { rbm.validate("model.npz"); }),
            "model.npz: visible bias has 2 entries but W has 3 columns");
}

TEST(RbmValidate, NamesAHiddenBiasOfTheWrongLength) {
  Rbm rbm(3, 2);
  rbm.hidden_bias = VectorD::Zero(4);
  EXPECT_EQ(input_error_message([&] { rbm.validate("model.npz"); }),
            "model.npz: hidden bias has 4 entries but W has 2 rows");
}

TEST(RbmValidate, NamesTheParameterHoldingNaNOrInf) {
  Rbm rbm(3, 2);
  rbm.weights(1, 2) = kNaN;
  EXPECT_EQ(input_error_message([&] { rbm.validate(); }), "RBM: W contains NaN or Inf");
  rbm = Rbm(3, 2);
  rbm.visible_bias[0] = kInfinity;
  EXPECT_EQ(input_error_message([&] { rbm.validate("start"); }), "start: visible bias contains NaN or Inf");
  rbm = Rbm(3, 2);
  rbm.hidden_bias[1] = -kInfinity;
  EXPECT_EQ(input_error_message([&] { rbm.validate("start"); }), "start: hidden bias contains NaN or Inf");
}

}  // namespace
}  // namespace rbmix
