#include "rbmix/model/statistics.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "rbmix/verify/generators.hpp"
#include "support/brute_force.hpp"

namespace rbmix {
namespace {

// Means of at most 12 products of numbers in [0, 1]: rounding only.
constexpr double kMeanTolerance = 1e-14;
// Central differences with step 1e-5: truncation O(h²·f''') ≈ 1e-10, rounding ≈ 1e-16/h ≈ 1e-11.
constexpr double kFiniteDifferenceStep = 1e-5;
constexpr double kFiniteDifferenceTolerance = 1e-7;

TEST(BatchStatistics, HandComputedBatch) {
  BinaryMatrix visible(2, 3);
  visible << 1, 0, 1, 0, 1, 1;
  MatrixD hidden(2, 2);
  hidden << 0.5, 1.0, 0.25, 0.0;
  const Statistics statistics = batch_statistics(visible, hidden);
  MatrixD hidden_visible(2, 3);
  // ⟨h_i v_j⟩ = (h₁ᵢ v₁ⱼ + h₂ᵢ v₂ⱼ)/2.
  hidden_visible << 0.25, 0.125, 0.375, 0.5, 0.0, 0.5;
  EXPECT_EQ(statistics.hidden_visible, hidden_visible);
  EXPECT_EQ(statistics.visible, Eigen::Vector3d(0.5, 0.5, 1.0));
  EXPECT_EQ(statistics.hidden, Eigen::Vector2d(0.375, 0.5));
}

RC_GTEST_PROP(BatchStatistics, AreTheMeansOfTheProductsOverRows, ()) {
  const int rows = *rc::gen::inRange(1, 7);
  const int m = *rc::gen::inRange(1, 5);
  const int n = *rc::gen::inRange(1, 5);
  const auto visible_bits =
      *rc::gen::container<std::vector<int>>(static_cast<std::size_t>(rows * m), rc::gen::inRange(0, 2));
  const auto hidden_grid =
      *rc::gen::container<std::vector<int>>(static_cast<std::size_t>(rows * n), rc::gen::inRange(0, 1001));
  MatrixD visible(rows, m), hidden(rows, n);
  for (int r = 0; r < rows; ++r) {
    for (int j = 0; j < m; ++j) visible(r, j) = visible_bits[static_cast<std::size_t>(r * m + j)];
    for (int i = 0; i < n; ++i) hidden(r, i) = hidden_grid[static_cast<std::size_t>(r * n + i)] / 1000.0;
  }
  const Statistics statistics = batch_statistics(visible, hidden);
  RC_ASSERT(statistics.hidden_visible.rows() == n);
  RC_ASSERT(statistics.hidden_visible.cols() == m);
  for (int i = 0; i < n; ++i) {
    double hidden_mean = 0;
    for (int r = 0; r < rows; ++r) hidden_mean += hidden(r, i) / rows;
    RC_ASSERT(std::abs(statistics.hidden[i] - hidden_mean) < kMeanTolerance);
    for (int j = 0; j < m; ++j) {
      double product_mean = 0;
      for (int r = 0; r < rows; ++r) product_mean += hidden(r, i) * visible(r, j) / rows;
      RC_ASSERT(std::abs(statistics.hidden_visible(i, j) - product_mean) < kMeanTolerance);
    }
  }
  for (int j = 0; j < m; ++j) {
    double visible_mean = 0;
    for (int r = 0; r < rows; ++r) visible_mean += visible(r, j) / rows;
    RC_ASSERT(std::abs(statistics.visible[j] - visible_mean) < kMeanTolerance);
  }
}

TEST(StatisticsDifference, IsPositiveMinusNegativeInTheShapeOfTheParameters) {
  Statistics positive{MatrixD::Constant(2, 3, 0.75), VectorD::Constant(3, 0.5), VectorD::Constant(2, 0.25)};
  Statistics negative{MatrixD::Constant(2, 3, 0.25), VectorD::Constant(3, 0.75), VectorD::Constant(2, 0.25)};
  negative.hidden_visible(1, 2) = 1.0;
  const Rbm gradient = statistics_difference(positive, negative);
  EXPECT_EQ(gradient.n_visible(), 3);
  EXPECT_EQ(gradient.n_hidden(), 2);
  MatrixD weights = MatrixD::Constant(2, 3, 0.5);
  weights(1, 2) = -0.25;
  EXPECT_EQ(gradient.weights, weights);
  EXPECT_EQ(gradient.visible_bias, VectorD::Constant(3, -0.25));
  EXPECT_EQ(gradient.hidden_bias, VectorD::Zero(2));
}

// Model statistics by weighting every joint state with p(v, h), in long double.
Statistics enumerated_model_statistics(const Rbm& rbm) {
  const long double log_partition = testing::brute_force_log_partition(rbm);
  const Eigen::Index m = rbm.n_visible(), n = rbm.n_hidden();
  Statistics out{MatrixD::Zero(n, m), VectorD::Zero(m), VectorD::Zero(n)};
  for (std::uint64_t v = 0; v < (std::uint64_t{1} << m); ++v)
    for (std::uint64_t h = 0; h < (std::uint64_t{1} << n); ++h) {
      const Eigen::RowVectorXd visible = testing::bits_of(v, m), hidden = testing::bits_of(h, n);
      const auto p = static_cast<double>(std::exp(-testing::brute_force_energy(rbm, visible, hidden) - log_partition));
      out.hidden_visible += p * hidden.transpose() * visible;
      out.visible += p * visible.transpose();
      out.hidden += p * hidden.transpose();
    }
  return out;
}

double average_log_likelihood(const Rbm& rbm, const std::vector<std::uint64_t>& data) {
  const Eigen::VectorXd marginal = testing::brute_force_visible_marginal(rbm);
  double total = 0;
  for (std::uint64_t v : data) total += std::log(marginal[static_cast<Eigen::Index>(v)]);
  return total / static_cast<double>(data.size());
}

// ∇ (1/B) Σ log p(v_b) = ⟨h vᵀ⟩_data − ⟨h vᵀ⟩_model with E[h|v] on the data side (docs/algorithms/operators.md §1):
// positive statistics from batch_statistics, negative ones from enumeration, their difference against finite
// differences of the brute-force log-likelihood.
RC_GTEST_PROP(StatisticsDifference, OfDataAndModelStatisticsIsTheLogLikelihoodGradient, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(4, 1.5);
  const auto data = *rc::gen::container<std::vector<std::uint64_t>>(
      static_cast<std::size_t>(*rc::gen::inRange(1, 6)),
      rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << rbm.n_visible()));
  MatrixD visible(static_cast<Eigen::Index>(data.size()), rbm.n_visible());
  for (std::size_t b = 0; b < data.size(); ++b)
    visible.row(static_cast<Eigen::Index>(b)) = testing::bits_of(data[b], rbm.n_visible());
  const Rbm gradient = statistics_difference(batch_statistics(visible, rbm.hidden_probabilities(visible)),
                                             enumerated_model_statistics(rbm));

  const auto central_difference = [&](auto&& parameter_of) {
    Rbm plus = rbm, minus = rbm;
    parameter_of(plus) += kFiniteDifferenceStep;
    parameter_of(minus) -= kFiniteDifferenceStep;
    return (average_log_likelihood(plus, data) - average_log_likelihood(minus, data)) / (2 * kFiniteDifferenceStep);
  };
  for (Eigen::Index i = 0; i < rbm.n_hidden(); ++i)
    for (Eigen::Index j = 0; j < rbm.n_visible(); ++j)
      RC_ASSERT(std::abs(gradient.weights(i, j) - central_difference([&](Rbm& r) -> double& {
                           return r.weights(i, j);
                         })) < kFiniteDifferenceTolerance);
  for (Eigen::Index j = 0; j < rbm.n_visible(); ++j)
    RC_ASSERT(std::abs(gradient.visible_bias[j] - central_difference([&](Rbm& r) -> double& {
                         return r.visible_bias[j];
                       })) < kFiniteDifferenceTolerance);
  for (Eigen::Index i = 0; i < rbm.n_hidden(); ++i)
    RC_ASSERT(std::abs(gradient.hidden_bias[i] - central_difference([&](Rbm& r) -> double& {
                         return r.hidden_bias[i];
                       })) < kFiniteDifferenceTolerance);
}

}  // namespace
}  // namespace rbmix
