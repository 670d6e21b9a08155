#include "rbmix/training/centered_parameters.hpp"

#include <gtest/gtest.h>

#include "rbmix/model/exact.hpp"
#include "rbmix/training/test_models.hpp"

namespace rbmix {
namespace {

// Re-parameterisation changes the biases by O(|W|·|offset|) ≈ 10 and back; rounding of such sums stays near 1e-14,
// and log Z sums 2^6 terms of that accuracy.
constexpr double kRoundingTolerance = 1e-11;

CenteredRbm example() {
  const Rbm plain = testing::random_rbm(6, 5, 2.0, 41);
  VectorD visible_offset(6), hidden_offset(5);
  visible_offset << 0.1, 0.9, 0.5, 0.3, 0.7, 0.2;
  hidden_offset << 0.5, 0.4, 0.6, 0.5, 0.8;
  return center(plain, visible_offset, hidden_offset);
}

Rbm plain_of(const CenteredRbm& centered) {
  Rbm plain;
  to_plain(centered, plain);
  return plain;
}

TEST(CenteredParameters, CenteringAndBackIsTheSameModel) {
  const Rbm plain = testing::random_rbm(6, 5, 2.0, 41);
  const CenteredRbm centered = example();
  const Rbm back = plain_of(centered);
  EXPECT_LT((back.weights - plain.weights).cwiseAbs().maxCoeff(), kRoundingTolerance);
  EXPECT_LT((back.visible_bias - plain.visible_bias).cwiseAbs().maxCoeff(), kRoundingTolerance);
  EXPECT_LT((back.hidden_bias - plain.hidden_bias).cwiseAbs().maxCoeff(), kRoundingTolerance);
}

// The centered energy −(h−λ)ᵀW(v−μ) − bᵀ(v−μ) − cᵀ(h−λ) and the plain energy of to_plain differ by a constant.
TEST(CenteredParameters, PlainFormHasTheCenteredEnergyUpToAConstant) {
  const CenteredRbm centered = example();
  const Rbm plain = plain_of(centered);
  const MatrixD visible = testing::random_binary_rows(20, 6, 1);
  const MatrixD hidden = testing::random_binary_rows(20, 5, 2);
  const Rbm& p = centered.parameters;
  VectorD difference(20);
  for (Eigen::Index row = 0; row < 20; ++row) {
    const VectorD v = visible.row(row).transpose() - centered.visible_offset;
    const VectorD h = hidden.row(row).transpose() - centered.hidden_offset;
    const double centered_energy = -(h.dot(p.weights * v) + p.visible_bias.dot(v) + p.hidden_bias.dot(h));
    difference[row] = centered_energy - plain.energy(visible.row(row), hidden.row(row))[0];
  }
  EXPECT_LT(difference.maxCoeff() - difference.minCoeff(), kRoundingTolerance);
}

// Moving the offsets re-parameterises the biases so that the model is unchanged: the same exact log Z and
// log-likelihoods (002 Alg. 4).
TEST(CenteredParameters, MovingTheOffsetsLeavesLogPartitionAndLikelihoodUnchanged) {
  CenteredRbm centered = example();
  const MatrixD data = testing::random_binary_rows(30, 6, 3);
  const Rbm before = plain_of(centered);
  const double log_partition_before = exact_log_partition(before);
  const double likelihood_before = exact_average_log_likelihood(before, data, log_partition_before);
  VectorD visible_mean = data.colwise().mean().transpose();
  VectorD hidden_mean = VectorD::Constant(5, 0.9);
  for (int move = 0; move < 50; ++move) move_offsets(centered, visible_mean, hidden_mean, 0.1);
  const Rbm after = plain_of(centered);
  const double log_partition_after = exact_log_partition(after);
  EXPECT_NEAR(log_partition_after, log_partition_before, kRoundingTolerance);
  EXPECT_NEAR(exact_average_log_likelihood(after, data, log_partition_after), likelihood_before, kRoundingTolerance);
  // The offsets did move: 1 − 0.9^50 of the way.
  EXPECT_NEAR(centered.hidden_offset[0], 0.9 - 0.4 * std::pow(0.9, 50), 1e-12);
}

// The centered gradient against its definition ⟨(h−λ)(v−μ)ᵀ⟩_d − ⟨(h−λ)(v−μ)ᵀ⟩_m from samples directly.
TEST(CenteredParameters, GradientMatchesItsDefinition) {
  const CenteredRbm centered = example();
  const MatrixD data_visible = testing::random_binary_rows(9, 6, 4);
  const MatrixD data_hidden = testing::random_binary_rows(9, 5, 5);
  const MatrixD model_visible = testing::random_binary_rows(9, 6, 6);
  const MatrixD model_hidden = testing::random_binary_rows(9, 5, 7);
  const Rbm gradient = centered_gradient(batch_statistics(data_visible, data_hidden),
                                         batch_statistics(model_visible, model_hidden), centered);
  auto centered_outer = [&](const MatrixD& v, const MatrixD& h) {
    const MatrixD vc = v.rowwise() - centered.visible_offset.transpose();
    const MatrixD hc = h.rowwise() - centered.hidden_offset.transpose();
    return MatrixD(hc.transpose() * vc / 9.0);
  };
  const MatrixD expected = centered_outer(data_visible, data_hidden) - centered_outer(model_visible, model_hidden);
  EXPECT_LT((gradient.weights - expected).cwiseAbs().maxCoeff(), 1e-14);
  const VectorD expected_visible = (data_visible.colwise().mean() - model_visible.colwise().mean()).transpose();
  EXPECT_LT((gradient.visible_bias - expected_visible).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(CenteredParameters, ZeroOffsetsGiveThePlainGradientExactly) {
  const Rbm plain = testing::random_rbm(6, 5, 2.0, 41);
  const CenteredRbm uncentered = center(plain, VectorD::Zero(6), VectorD::Zero(5));
  const Statistics positive =
      batch_statistics(testing::random_binary_rows(9, 6, 4), testing::random_binary_rows(9, 5, 5));
  const Statistics negative =
      batch_statistics(testing::random_binary_rows(9, 6, 6), testing::random_binary_rows(9, 5, 7));
  const Rbm centered = centered_gradient(positive, negative, uncentered);
  const Rbm ordinary = statistics_difference(positive, negative);
  EXPECT_EQ(centered.weights, ordinary.weights);
}

}  // namespace
}  // namespace rbmix
