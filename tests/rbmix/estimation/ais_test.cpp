#include "rbmix/estimation/ais.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>

#include "rbmix/core/error.hpp"
#include "rbmix/model/exact.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix {
namespace {

// E[w] = Z/Z_A and the mean of P weights is asymptotically normal, so mean w lies within 6 standard errors of
// Z/Z_A except with probability 2e-9 per check (normal tail), far below 1e-6 for the dozen checks here.
constexpr double test_standard_errors = 6.0;

Rbm random_model(Eigen::Index n_visible, Eigen::Index n_hidden, double scale, std::uint64_t seed) {
  RandomStream stream(seed, 0, StreamDomain::experiment);
  Rbm rbm(n_visible, n_hidden);
  rbm.weights = MatrixD::NullaryExpr(n_hidden, n_visible, [&] { return scale * stream.normal(); });
  rbm.visible_bias = VectorD::NullaryExpr(n_visible, [&] { return 0.5 * stream.normal(); });
  rbm.hidden_bias = VectorD::NullaryExpr(n_hidden, [&] { return 0.5 * stream.normal(); });
  return rbm;
}

// True when the mean weight lies within `multiple` standard errors of its expectation: Z/Z_A for AIS, Z_A/Z for
// reverse AIS.
bool within_standard_errors(const AisResult& result, double log_partition, double multiple, bool reverse = false) {
  const double largest = result.log_weights.maxCoeff();
  const Eigen::ArrayXd weights = (result.log_weights.array() - largest).exp();
  const auto count = static_cast<double>(weights.size());
  const double standard_error = std::sqrt((weights - weights.mean()).square().sum() / (count - 1.0) / count);
  const double log_ratio = log_partition - result.base_log_partition;
  const double target = std::exp((reverse ? -log_ratio : log_ratio) - largest);
  return std::abs(weights.mean() - target) <= multiple * standard_error;
}

TEST(AisInverseTemperatures, RunFromZeroToOne) {
  const std::vector<double> linear = ais_inverse_temperatures(AisSchedule::linear, 4);
  EXPECT_EQ(linear, (std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0}));
  const std::vector<double> sm = ais_inverse_temperatures(AisSchedule::salakhutdinov_murray, 0);
  ASSERT_EQ(sm.size(), 14501U);
  EXPECT_EQ(sm.front(), 0.0);
  EXPECT_EQ(sm.back(), 1.0);
  EXPECT_NEAR(sm[1], 1e-3, 1e-15);
  EXPECT_NEAR(sm[501] - sm[500], 1e-4, 1e-12);
  EXPECT_NEAR(sm[14500] - sm[14499], 1e-5, 1e-12);
  for (std::size_t k = 1; k < sm.size(); ++k) ASSERT_LT(sm[k - 1], sm[k]);
}

TEST(AisLogPartition, IsExactWhenTheModelHasNoWeights) {
  // W = 0 and b_A = b: every increment is Σ_i softplus(β_k c_i) − softplus(β_{k−1} c_i), the same for all
  // particles, so the estimate is exact (up to rounding) whatever the sampling.
  Rbm rbm(6, 4);
  rbm.visible_bias << 0.5, -1, 2, 0, 0.1, -0.3;
  rbm.hidden_bias << 1, -2, 0.5, 3;
  AisOptions options;
  options.particles = 5;
  options.distributions = 50;
  options.base_visible_bias = rbm.visible_bias;
  options.single_precision = false;
  const AisResult result = ais_log_partition(rbm, options);
  EXPECT_NEAR(result.log_partition, exact_log_partition(rbm), 1e-12);
  EXPECT_NEAR(result.effective_sample_size, 5.0, 1e-9);
}

TEST(AisLogPartition, FindsTheExactValueOnEnumerableModels) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    SCOPED_TRACE(seed);
    const Rbm rbm = random_model(12, 8, 1.0, seed);
    AisOptions options;
    options.particles = 100;
    options.distributions = 500;
    options.seed = seed;
    options.base_visible_bias = rbm.visible_bias;
    const double exact = exact_log_partition(rbm);
    for (const bool single : {false, true}) {
      options.single_precision = single;
      const AisResult result = ais_log_partition(rbm, options);
      EXPECT_TRUE(within_standard_errors(result, exact, test_standard_errors))
          << "log Ẑ " << result.log_partition << " exact " << exact;
      EXPECT_LE(result.log_partition_lower, result.log_partition);
      EXPECT_GE(result.log_partition_upper, result.log_partition);
      EXPECT_EQ(result.distributions, 500);
    }
  }
}

TEST(AisLogPartition, FindsTheExactValueOfAnMnistSizedModel) {
  // 784 visible, 20 hidden: exact log Z enumerates the 2^20 hidden states (about 2 s on two cores).
  RandomStream stream(21, 0, StreamDomain::experiment);
  Rbm rbm(784, 20);
  rbm.weights = MatrixD::NullaryExpr(20, 784, [&] { return 0.1 * stream.normal(); });
  rbm.visible_bias = VectorD::NullaryExpr(784, [&] { return stream.normal() - 1.0; });
  AisOptions options;
  options.particles = 100;
  options.distributions = 300;
  options.base_visible_bias = rbm.visible_bias;
  const AisResult result = ais_log_partition(rbm, options);
  const double exact = exact_log_partition(rbm);
  EXPECT_TRUE(within_standard_errors(result, exact, test_standard_errors))
      << "log Ẑ " << result.log_partition << " exact " << exact;
  EXPECT_GT(result.effective_sample_size, 1.0);
}

TEST(ReverseAisLogPartition, FromExactModelSamplesIsUnbiasedForTheInverseRatio) {
  // Exact samples of p(v) by inverting the cumulative distribution over all 2^10 visible states.
  const Rbm rbm = random_model(10, 8, 1.0, 31);
  const double exact = exact_log_partition(rbm);
  MatrixD states(1 << 10, 10);
  for (Eigen::Index k = 0; k < states.rows(); ++k)
    for (Eigen::Index j = 0; j < 10; ++j) states(k, j) = static_cast<double>((k >> j) & 1);
  const VectorD probability = exact_log_probability(rbm, states, exact).array().exp();
  RandomStream stream(4, 0, StreamDomain::experiment);
  MatrixD start(100, 10);
  for (Eigen::Index row = 0; row < start.rows(); ++row) {
    double remaining = stream.uniform();
    Eigen::Index state = 0;
    while (state + 1 < states.rows() && remaining >= probability[state]) remaining -= probability[state++];
    start.row(row) = states.row(state);
  }
  AisOptions options;
  options.distributions = 500;
  options.base_visible_bias = rbm.visible_bias;
  const AisResult result = reverse_ais_log_partition(rbm, start, options);
  EXPECT_EQ(result.log_weights.size(), 100);
  EXPECT_TRUE(within_standard_errors(result, exact, test_standard_errors, true))
      << "log Ẑ " << result.log_partition << " exact " << exact;
  EXPECT_LE(result.log_partition_lower, result.log_partition);
  EXPECT_GE(result.log_partition_upper, result.log_partition);
  EXPECT_THROW(reverse_ais_log_partition(rbm, MatrixD::Constant(3, 10, 0.5), options), InputError);
}

TEST(AisLogPartition, ErrorShrinksWithMoreIntermediateDistributions) {
  // For a smooth path the variance of log w falls like 1/K (Neal 2001), so from K = 10 to K = 1000 it should
  // fall ~100×; a factor 10 leaves ample room for the sampling error of two variances over 300 particles.
  const Rbm rbm = random_model(16, 10, 1.5, 99);
  const double exact = exact_log_partition(rbm);
  AisOptions options;
  options.particles = 300;
  options.seed = 3;
  double previous_variance = 0.0;
  for (const Eigen::Index distributions : {10, 1000}) {
    options.distributions = distributions;
    const AisResult result = ais_log_partition(rbm, options);
    const double variance = (result.log_weights.array() - result.log_weights.mean()).square().mean();
    if (distributions == 1000) {
      EXPECT_LT(variance * 10.0, previous_variance);
      EXPECT_TRUE(within_standard_errors(result, exact, test_standard_errors));
    }
    previous_variance = variance;
  }
}

// AIS is unbiased at every K, not only as K → ∞: E[w] = Z/Z_A exactly for any number of intermediate
// distributions, provided the transition after increment k leaves p_k invariant. With K = 2–5 consecutive p_k
// differ a lot, so a transition run at the wrong inverse temperature (β_{k−1}), or an increment dropped, moves
// mean w by many standard errors at 10^4 particles, where at K = 300–1000 the same bias hides in the band. The
// sixteen checks (four operators × four K) fail by chance with probability below 16 · 2e-9 < 1e-7 (normal tail of
// the mean of 10^4 weights of an enumerable model, whose weights are bounded).
TEST(AisLogPartition, IsUnbiasedWithFewIntermediateDistributionsForEveryOperator) {
  const Rbm rbm = random_model(8, 6, 2.0, 17);
  const double exact = exact_log_partition(rbm);
  AisOptions options;
  options.particles = 10000;
  options.single_precision = false;
  for (const char* rule : {"gibbs", "flip", "mix:0.3", "unit-modified:0.5"})
    for (const Eigen::Index distributions : {2, 3, 4, 5}) {
      options.rule = parse_unit_rule(rule);
      options.distributions = distributions;
      options.seed = static_cast<std::uint64_t>(distributions);
      const AisResult result = ais_log_partition(rbm, options);
      EXPECT_TRUE(within_standard_errors(result, exact, test_standard_errors))
          << rule << " K = " << distributions << ": log Ẑ " << result.log_partition << " exact " << exact;
    }
}

// The flip-the-state operator (and the mixture) drive AIS as well as Gibbs: at the usual settings the estimate
// lies within the band of the exact value.
TEST(AisLogPartition, FindsTheExactValueWithTheFlipOperator) {
  const Rbm rbm = random_model(12, 8, 1.0, 2);
  const double exact = exact_log_partition(rbm);
  AisOptions options;
  options.particles = 100;
  options.distributions = 500;
  options.base_visible_bias = rbm.visible_bias;
  for (const char* rule : {"flip", "mix:0.3"}) {
    options.rule = parse_unit_rule(rule);
    const AisResult result = ais_log_partition(rbm, options);
    EXPECT_TRUE(within_standard_errors(result, exact, test_standard_errors))
        << rule << ": log Ẑ " << result.log_partition << " exact " << exact;
  }
}

TEST(AisLogPartition, DoesNotDependOnTheThreadCount) {
  const Rbm rbm = random_model(20, 15, 1.0, 5);
  AisOptions options;
  options.particles = 16;
  options.distributions = 100;
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const AisResult one = ais_log_partition(rbm, options);
  omp_set_num_threads(std::max(2, threads));
  const AisResult many = ais_log_partition(rbm, options);
  omp_set_num_threads(threads);
  EXPECT_EQ(one.log_weights, many.log_weights);
}

TEST(AisLogPartition, ReportsEveryDistributionAndLeavesTheWeightsUnchanged) {
  const Rbm rbm = random_model(8, 5, 1.0, 6);
  AisOptions options;
  options.particles = 4;
  options.distributions = 6;
  const AisResult plain = ais_log_partition(rbm, options);
  std::vector<Eigen::Index> reported;
  options.on_distribution = [&](Eigen::Index done) { reported.push_back(done); };
  const AisResult watched = ais_log_partition(rbm, options);
  EXPECT_EQ(reported, (std::vector<Eigen::Index>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(watched.log_weights, plain.log_weights);
  reported.clear();
  reverse_ais_log_partition(rbm, MatrixD::Ones(3, 8), options);
  EXPECT_EQ(reported.size(), 6U);
}

TEST(AisAverageLogLikelihood, IsTheExactOneShiftedByTheLogPartitionError) {
  const Rbm rbm = random_model(10, 6, 1.0, 8);
  MatrixD data(3, 10);
  data << 1, 0, 1, 0, 1, 0, 1, 0, 1, 0,  //
      0, 0, 0, 0, 0, 1, 1, 1, 1, 1,      //
      1, 1, 1, 1, 1, 1, 1, 1, 1, 1;
  AisOptions options;
  options.particles = 50;
  options.distributions = 200;
  options.base_visible_bias = base_rate_visible_bias(data);
  const AisResult ais = ais_log_partition(rbm, options);
  const double exact_log_partition_value = exact_log_partition(rbm);
  const LogLikelihoodEstimate estimate = ais_average_log_likelihood(rbm, data, ais);
  EXPECT_NEAR(estimate.value,
              exact_average_log_likelihood(rbm, data, exact_log_partition_value) +
                  (exact_log_partition_value - ais.log_partition),
              1e-10);
  EXPECT_LE(estimate.lower, estimate.value);
  EXPECT_GE(estimate.upper, estimate.value);
}

TEST(BaseRateVisibleBias, IsTheLogitOfTheClippedMean) {
  MatrixD data(4, 3);
  data << 1, 0, 1,  //
      1, 0, 0,      //
      1, 0, 1,      //
      1, 0, 0;
  const VectorD bias = base_rate_visible_bias(data, 0.01);
  EXPECT_NEAR(bias[0], std::log(0.99 / 0.01), 1e-12);
  EXPECT_NEAR(bias[1], std::log(0.01 / 0.99), 1e-12);
  EXPECT_NEAR(bias[2], 0.0, 1e-12);
}

TEST(AisLogPartition, RejectsInvalidOptions) {
  const Rbm rbm(4, 3);
  AisOptions options;
  options.particles = 1;
  std::string why;
  EXPECT_FALSE(options.is_valid(&why));
  EXPECT_NE(why.find("particles"), std::string::npos);
  EXPECT_THROW(ais_log_partition(rbm, options), InputError);
  options.particles = 10;
  options.base_visible_bias = VectorD::Zero(5);
  EXPECT_THROW(ais_log_partition(rbm, options), InputError);
  EXPECT_THROW(parse_ais_schedule("cosine"), InputError);
}

}  // namespace
}  // namespace rbmix
