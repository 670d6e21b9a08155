#include "rbmix/data/datasets.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

std::set<std::vector<std::uint8_t>> distinct_rows(const BinaryMatrix& data) {
  std::set<std::vector<std::uint8_t>> rows;
  for (Eigen::Index r = 0; r < data.rows(); ++r) rows.emplace(data.row(r).data(), data.row(r).data() + data.cols());
  return rows;
}

TEST(BarsAndStripes, HasAllPatternsWithTheTwoDuplicates) {
  const BinaryMatrix data = bars_and_stripes(3);
  EXPECT_EQ(data.rows(), 16);
  EXPECT_EQ(data.cols(), 9);
  EXPECT_EQ(distinct_rows(data).size(), 14U);
  // Published best average log-likelihoods (docs/algorithms/data-and-figures.md §7): −2.599 with duplicates, −ln 14
  // unique.
  EXPECT_NEAR(best_average_log_likelihood(data), -2.599, 5e-4);
  const BinaryMatrix unique = bars_and_stripes(3, true);
  EXPECT_EQ(unique.rows(), 14);
  EXPECT_EQ(distinct_rows(unique).size(), 14U);
  EXPECT_NEAR(best_average_log_likelihood(unique), -std::log(14.0), 1e-12);
}

TEST(BarsAndStripes, EveryRowIsConstantAlongRowsOrAlongColumns) {
  const int size = 4;
  const BinaryMatrix data = bars_and_stripes(size);
  EXPECT_EQ(data.rows(), 32);
  for (Eigen::Index r = 0; r < data.rows(); ++r) {
    bool stripes = true, bars = true;
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j) {
        stripes = stripes && data(r, i * size + j) == data(r, i * size);
        bars = bars && data(r, i * size + j) == data(r, j);
      }
    EXPECT_TRUE(stripes || bars) << "row " << r;
  }
}

TEST(ShiftingBar, HasOneRowPerShiftAndBestLogLikelihoodMinusLogN) {
  const BinaryMatrix data = shifting_bar(9, 1);
  EXPECT_EQ(data.rows(), 9);
  EXPECT_EQ(distinct_rows(data).size(), 9U);
  EXPECT_NEAR(best_average_log_likelihood(data), -std::log(9.0), 1e-12);
  const BinaryMatrix wide = shifting_bar(9, 3);
  for (Eigen::Index r = 0; r < wide.rows(); ++r) EXPECT_EQ(wide.row(r).cast<int>().sum(), 3);
  EXPECT_EQ(wide(8, 8) + wide(8, 0) + wide(8, 1), 3);  // the bar wraps around
  EXPECT_THROW(shifting_bar(4, 5), InputError);
}

TEST(ArtificialModes, BasicModesAreMutuallyAtHammingDistanceEight) {
  const BinaryMatrix modes = artificial_modes_basic_modes();
  ASSERT_EQ(modes.rows(), 4);
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b)
      EXPECT_EQ((modes.row(a).cast<int>() - modes.row(b).cast<int>()).cwiseAbs().sum(), a == 2 && b == 3 ? 16 : 8);
}

TEST(ArtificialModes, FlipFrequencyAndModeFrequenciesMatchTheParameters) {
  // 20 000 samples × 16 pixels: the flip rate's standard error is sqrt(0.1·0.9/320000) ≈ 5.3e-4; 6 standard errors
  // (false-failure rate < 1e-8). Each mode's share has standard error sqrt(0.25·0.75/20000) ≈ 3.1e-3.
  const auto data = artificial_modes(0.1, 20000, 42);
  const BinaryMatrix modes = artificial_modes_basic_modes();
  long flips = 0;
  std::vector<int> per_mode(4, 0);
  for (Eigen::Index r = 0; r < data.samples.rows(); ++r) {
    const int mode = data.labels[static_cast<std::size_t>(r)];
    ++per_mode[static_cast<std::size_t>(mode)];
    flips += (data.samples.row(r).cast<int>() - modes.row(mode).cast<int>()).cwiseAbs().sum();
  }
  EXPECT_NEAR(static_cast<double>(flips) / (20000.0 * 16), 0.1, 6 * 5.3e-4);
  for (int count : per_mode) EXPECT_NEAR(count / 20000.0, 0.25, 6 * 3.1e-3);
  // Same seed, same data; another seed, other data.
  EXPECT_EQ(artificial_modes(0.1, 100, 42).samples, artificial_modes(0.1, 100, 42).samples);
  EXPECT_NE(artificial_modes(0.1, 100, 42).samples, artificial_modes(0.1, 100, 43).samples);
}

}  // namespace
}  // namespace rbmix
