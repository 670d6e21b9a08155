#include "rbmix/sampling/rates.hpp"

#include <gtest/gtest.h>

#include "rbmix/core/error.hpp"
#include "rbmix/training/test_models.hpp"

namespace rbmix {
namespace {

// The blocked matrix products and the per-row loop sum in different orders.
constexpr double kSummationTolerance = 1e-12;

BinaryMatrix random_data(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed) {
  return testing::random_binary_rows(rows, cols, seed).cast<std::uint8_t>();
}

TEST(Rates, EqualTheMeanOfTheSufficientStatisticsRowByRow) {
  const Rbm rbm = testing::random_rbm(7, 5, 2.0, 3);
  // More rows than one block, so the blocking is exercised.
  const BinaryMatrix data = random_data(5000, 7, 4);
  const SufficientStatistics rates = compute_rates(rbm, data, "data");
  MatrixD weights = MatrixD::Zero(5, 7);
  VectorD visible = VectorD::Zero(7), hidden = VectorD::Zero(5);
  for (Eigen::Index row = 0; row < data.rows(); ++row) {
    const VectorD x = data.row(row).cast<double>().transpose();
    VectorD h(5);
    for (Eigen::Index i = 0; i < 5; ++i)
      h[i] = 1.0 / (1.0 + std::exp(-(rbm.hidden_bias[i] + rbm.weights.row(i).dot(x))));
    weights += h * x.transpose();
    visible += x;
    hidden += h;
  }
  const double rows = static_cast<double>(data.rows());
  EXPECT_LT((rates.weights - weights / rows).cwiseAbs().maxCoeff(), kSummationTolerance);
  EXPECT_LT((rates.visible - visible / rows).cwiseAbs().maxCoeff(), kSummationTolerance);
  EXPECT_LT((rates.hidden - hidden / rows).cwiseAbs().maxCoeff(), kSummationTolerance);
}

TEST(Rates, RefuseEmptyMisshapenOrNonBinaryData) {
  const Rbm rbm = testing::random_rbm(4, 3, 1.0, 1);
  EXPECT_THROW(compute_rates(rbm, BinaryMatrix(0, 4), "empty.npy"), InputError);
  EXPECT_THROW(compute_rates(rbm, random_data(3, 5, 2), "wide.npy"), InputError);
  BinaryMatrix two = random_data(3, 4, 2);
  two(1, 2) = 2;
  try {
    compute_rates(rbm, two, "two.npy");
    FAIL() << "a value of 2 was accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("two.npy"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("binary"), std::string::npos);
  }
  Rbm broken = rbm;
  broken.weights(0, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(compute_rates(broken, random_data(3, 4, 2), "data"), InputError);
}

}  // namespace
}  // namespace rbmix
