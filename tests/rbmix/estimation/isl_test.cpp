#include "rbmix/estimation/isl.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "rbmix/core/error.hpp"
#include "rbmix/training/test_models.hpp"

namespace rbmix {
namespace {

// log-sum-exp from the nearest distance against a long-double product per sample: rounding only.
constexpr double kRoundingTolerance = 1e-11;
// The golden-section search stops when its bracket is far below this in β.
constexpr double kBetaTolerance = 1e-6;

BinaryMatrix random_data(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed) {
  return testing::random_binary_rows(rows, cols, seed).cast<std::uint8_t>();
}

// p̂(x) = (1/N) Σ_i Π_j β^{[x_j = s_ij]} (1 − β)^{[x_j ≠ s_ij]}, the definition, as a double loop in long double.
long double brute_force_log_density(const BinaryMatrix& samples, Eigen::Index count, const BinaryMatrix& queries,
                                    Eigen::Index query, long double beta) {
  long double sum = 0.0L;
  for (Eigen::Index i = 0; i < count; ++i) {
    long double product = 1.0L;
    for (Eigen::Index j = 0; j < samples.cols(); ++j)
      product *= samples(i, j) == queries(query, j) ? beta : 1.0L - beta;
    sum += product;
  }
  return std::log(sum / static_cast<long double>(count));
}

DistanceHistograms histograms_of(const BinaryMatrix& queries, const BinaryMatrix& samples, Eigen::Index count) {
  DistanceHistograms histograms(PackedBinaryRows(queries, "queries"));
  histograms.add(PackedBinaryRows(samples, "samples"), 0, count);
  return histograms;
}

TEST(Isl, ParzenDensityEqualsTheDoubleLoop) {
  // 90 units: a sample's product underflows nowhere in long double, and 2 words are in play.
  const BinaryMatrix samples = random_data(41, 90, 1);
  const BinaryMatrix queries = random_data(12, 90, 2);
  const DistanceHistograms histograms = histograms_of(queries, samples, samples.rows());
  for (const double beta : {0.501, 0.6, 0.8, 0.95, 0.999}) {
    double mean = 0.0;
    for (Eigen::Index q = 0; q < queries.rows(); ++q) {
      const auto exact = static_cast<double>(brute_force_log_density(samples, samples.rows(), queries, q, beta));
      EXPECT_NEAR(log_parzen_density(histograms.counts(q), 90, samples.rows(), beta), exact,
                  kRoundingTolerance * std::abs(exact))
          << "β " << beta << " query " << q;
      mean += exact / static_cast<double>(queries.rows());
    }
    EXPECT_NEAR(mean_log_parzen_density(histograms, beta), mean, kRoundingTolerance * std::abs(mean));
  }
}

TEST(Isl, OneSampleGivesTheClosedForm) {
  // N = 1: log p̂(x) = (m − d) log β + d log(1 − β), and the validation optimum is β = 1 − d/m when d/m < ½.
  const BinaryMatrix sample = random_data(1, 50, 3);
  BinaryMatrix query = sample;
  for (const Eigen::Index flipped : {3, 11, 17}) query(0, flipped) = 1 - query(0, flipped);
  const DistanceHistograms histograms = histograms_of(query, sample, 1);
  const double beta = 0.83;
  EXPECT_NEAR(log_parzen_density(histograms.counts(0), 50, 1, beta), 47 * std::log(beta) + 3 * std::log(1 - beta),
              kRoundingTolerance);
  EXPECT_NEAR(choose_bandwidth(histograms).beta, 1.0 - 3.0 / 50.0, kBetaTolerance);
}

// The search range's ends are t = log(β/(1−β)) = 10⁻⁴ and 30 (isl.hpp). Validation rows that repeat every sample
// push β to the upper end (p̂ of a repeated row grows as β → 1); rows at distance m from every sample push it to the
// lower end (log p̂ = m log(1 − β) − … falls as β grows). Both are reported as on their bound; an interior optimum
// (the one-sample closed form, β = 0.94) is not.
TEST(Isl, BandwidthReachesAndReportsTheEndsOfItsRange) {
  const auto log_odds = [](double beta) { return std::log(beta) - std::log1p(-beta); };
  const BinaryMatrix samples = random_data(40, 30, 11);
  const BandwidthChoice repeated = choose_bandwidth(histograms_of(samples, samples, samples.rows()));
  EXPECT_NEAR(log_odds(repeated.beta), 30.0, 0.01);
  EXPECT_EQ(bandwidth_bound(repeated.beta), BandwidthBound::upper);

  const BinaryMatrix zeros = BinaryMatrix::Zero(3, 30), ones = BinaryMatrix::Ones(2, 30);
  const BandwidthChoice far = choose_bandwidth(histograms_of(ones, zeros, zeros.rows()));
  EXPECT_NEAR(log_odds(far.beta), 1e-4, 1e-8);
  EXPECT_EQ(bandwidth_bound(far.beta), BandwidthBound::lower);

  EXPECT_EQ(bandwidth_bound(1.0 - 3.0 / 50.0), BandwidthBound::none);
  EXPECT_EQ(to_string(BandwidthBound::upper), "upper");
}

TEST(Isl, ChosenBandwidthIsAtLeastAsGoodAsAFineGrid) {
  const BinaryMatrix samples = random_data(200, 64, 4);
  const BinaryMatrix validation = random_data(30, 64, 5);
  const DistanceHistograms histograms = histograms_of(validation, samples, samples.rows());
  const BandwidthChoice choice = choose_bandwidth(histograms);
  EXPECT_NEAR(choice.mean_log_density, mean_log_parzen_density(histograms, choice.beta), kRoundingTolerance * 100);
  for (int k = 1; k < 1000; ++k) {
    const double beta = 0.5 + 0.5 * k / 1000.0;
    EXPECT_GE(choice.mean_log_density, mean_log_parzen_density(histograms, beta) - 1e-9) << "β " << beta;
  }
}

TEST(Isl, CurveUsesTheFirstNSamplesAndTheValidationBeta) {
  const BinaryMatrix samples = random_data(120, 30, 6);
  const BinaryMatrix validation = random_data(15, 30, 7);
  const BinaryMatrix test = random_data(20, 30, 8);
  const std::vector<Eigen::Index> counts = log_spaced_counts(samples.rows());
  EXPECT_EQ(counts, (std::vector<Eigen::Index>{1, 2, 5, 10, 20, 50, 100, 120}));
  const std::vector<IslPoint> curve = isl_curve(samples, validation, test, counts);
  ASSERT_EQ(curve.size(), counts.size());
  for (const IslPoint& point : curve) {
    const BandwidthChoice choice = choose_bandwidth(histograms_of(validation, samples, point.samples));
    EXPECT_EQ(point.beta, choice.beta);
    EXPECT_EQ(point.validation, choice.mean_log_density);
    double mean = 0.0;
    for (Eigen::Index q = 0; q < test.rows(); ++q)
      mean += static_cast<double>(brute_force_log_density(samples, point.samples, test, q, point.beta));
    mean /= static_cast<double>(test.rows());
    EXPECT_NEAR(point.test, mean, kRoundingTolerance * std::abs(mean)) << point.samples << " samples";
  }
}

TEST(Isl, RefusesMismatchedOrNonBinarySetsAndBadCounts) {
  const BinaryMatrix samples = random_data(10, 8, 9);
  const BinaryMatrix rows = random_data(4, 8, 10);
  EXPECT_THROW(isl_curve(samples, random_data(4, 9, 1), rows, {5}), InputError);
  EXPECT_THROW(isl_curve(samples, rows, random_data(4, 7, 1), {5}), InputError);
  EXPECT_THROW(isl_curve(samples, rows, rows, {0}), InputError);
  EXPECT_THROW(isl_curve(samples, rows, rows, {11}), InputError);
  EXPECT_THROW(isl_curve(samples, rows, rows, {5, 5}), InputError);
  EXPECT_THROW(isl_curve(samples, rows, rows, {}), InputError);
  EXPECT_THROW(isl_curve(BinaryMatrix(0, 8), rows, rows, {1}), InputError);
  BinaryMatrix grey = samples;
  grey(3, 3) = 7;
  EXPECT_THROW(isl_curve(grey, rows, rows, {5}), InputError);
  const DistanceHistograms histograms = histograms_of(rows, samples, 10);
  EXPECT_THROW(mean_log_parzen_density(histograms, 0.5), InputError);
  EXPECT_THROW(mean_log_parzen_density(histograms, 1.0), InputError);
  EXPECT_THROW(mean_log_parzen_density(histograms, std::nan("")), InputError);
  EXPECT_THROW(log_spaced_counts(0), InputError);
}

}  // namespace
}  // namespace rbmix
