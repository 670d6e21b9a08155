#include "rbmix/data/binarize.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace rbmix {
namespace {

TEST(Binarize, ThresholdIsAtOneHalf) {
  ByteMatrix intensities(1, 5);
  intensities << 0, 127, 128, 200, 255;
  BinaryMatrix expected(1, 5);
  expected << 0, 0, 1, 1, 1;
  EXPECT_EQ(threshold_binarize(intensities), expected);
}

TEST(Binarize, StochasticIsDeterministicBySeedAndEpochAndRowLocal) {
  const ByteMatrix intensities = ByteMatrix::Constant(50, 40, 100);
  const BinaryMatrix once = stochastic_binarize(intensities, 7);
  EXPECT_EQ(stochastic_binarize(intensities, 7), once);
  EXPECT_EQ(stochastic_binarize(intensities, 7, 0), once);
  EXPECT_NE(stochastic_binarize(intensities, 8), once);
  EXPECT_NE(stochastic_binarize(intensities, 7, 1), once);
  // A row's draw depends only on (seed, epoch, row): binarising a subset gives the same rows.
  EXPECT_EQ(stochastic_binarize(ByteMatrix(intensities.topRows(10)), 7), BinaryMatrix(once.topRows(10)));
}

TEST(Binarize, StochasticKeepsExtremesAndMatchesTheMean) {
  ByteMatrix intensities(2000, 3);
  intensities.col(0).setConstant(0);
  intensities.col(1).setConstant(255);
  intensities.col(2).setConstant(51);  // p = 0.2
  const BinaryMatrix binary = stochastic_binarize(intensities, 2024, 3);
  EXPECT_EQ(binary.col(0).cast<int>().sum(), 0);
  EXPECT_EQ(binary.col(1).cast<int>().sum(), 2000);
  // 2000 Bernoulli(0.2) draws: sd of the mean = sqrt(0.2·0.8/2000) ≈ 0.0089; 5.5 sd gives a false-failure rate
  // below 1e-7 for this fixed seed's family of tests.
  const double mean = binary.col(2).cast<double>().mean();
  EXPECT_NEAR(mean, 0.2, 5.5 * std::sqrt(0.2 * 0.8 / 2000));
}

}  // namespace
}  // namespace rbmix
