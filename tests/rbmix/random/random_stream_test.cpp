#include "rbmix/random/random_stream.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <set>
#include <vector>

namespace rbmix {
namespace {

// Every statistical test below has a fixed seed and fails by chance with probability at most this.
constexpr double kFalseFailureRate = 1e-6;

constexpr std::array<StreamDomain, 7> kAllDomains = {
    StreamDomain::chains,     StreamDomain::data,         StreamDomain::initialisation, StreamDomain::tempering,
    StreamDomain::experiment, StreamDomain::binarisation, StreamDomain::patch_sampling};

static_assert(std::uniform_random_bit_generator<RandomStream>,
              "RandomStream must drive the standard distributions (std::shuffle and friends)");

std::vector<std::uint64_t> first_outputs(RandomStream stream, int count) {
  std::vector<std::uint64_t> out(static_cast<std::size_t>(count));
  for (auto& value : out) value = stream();
  return out;
}

// Kolmogorov–Smirnov statistic sup_x |F_n(x) − F(x)| of a sample against a continuous CDF.
template <typename Cdf>
double kolmogorov_smirnov_statistic(std::vector<double> sample, Cdf cdf) {
  std::sort(sample.begin(), sample.end());
  const auto n = static_cast<double>(sample.size());
  double statistic = 0;
  for (std::size_t k = 0; k < sample.size(); ++k) {
    const double f = cdf(sample[k]);
    statistic = std::max({statistic, static_cast<double>(k + 1) / n - f, f - static_cast<double>(k) / n});
  }
  return statistic;
}

// The Dvoretzky–Kiefer–Wolfowitz inequality with Massart's constant, P(D_n > ε) ≤ 2 e^{−2nε²}, holds for every n
// (no asymptotics): the ε whose bound is the false-failure rate.
double kolmogorov_smirnov_bound(std::size_t n) {
  return std::sqrt(std::log(2.0 / kFalseFailureRate) / (2.0 * static_cast<double>(n)));
}

// Pearson's χ² statistic of counts against equal expected counts, and its critical value for the false-failure rate.
double chi_squared_statistic(const std::vector<double>& counts, double expected_per_bin) {
  double statistic = 0;
  for (double count : counts) statistic += (count - expected_per_bin) * (count - expected_per_bin) / expected_per_bin;
  return statistic;
}
double chi_squared_critical_value(std::size_t bins) {
  const boost::math::chi_squared distribution(static_cast<double>(bins - 1));
  return boost::math::quantile(boost::math::complement(distribution, kFalseFailureRate));
}

// The inverse of an odd number modulo 2^64 by Newton's iteration x ← x(2 − a x): each step doubles the correct low
// bits, starting from 3 (a·a ≡ 1 mod 8 for odd a), so five steps reach 96 ≥ 64.
constexpr std::uint64_t inverse_modulo_2_to_64(std::uint64_t odd) {
  std::uint64_t inverse = odd;
  for (int step = 0; step < 5; ++step) inverse *= 2 - odd * inverse;
  return inverse;
}

// A state whose next output is `output`: xoshiro256** outputs rotl(s₁·5, 7)·9, and 5 and 9 are invertible mod 2^64.
RandomStream stream_whose_next_output_is(std::uint64_t output) {
  const std::uint64_t rotated = output * inverse_modulo_2_to_64(9);
  const std::uint64_t s1 = ((rotated >> 7) | (rotated << 57)) * inverse_modulo_2_to_64(5);
  return RandomStream(RandomStream::State{0x1234, s1, 0x5678, 0x9abc});
}

// The reference implementation's first ten outputs from the state {1, 2, 3, 4} (Blackman & Vigna 2018; the test
// vector of the rand_xoshiro crate, "produced with the reference implementation").
TEST(RandomStream, MatchesThePublishedXoshiro256StarStarVector) {
  RandomStream stream(RandomStream::State{1, 2, 3, 4});
  const std::vector<std::uint64_t> expected = {11520ULL,
                                               0ULL,
                                               1509978240ULL,
                                               1215971899390074240ULL,
                                               1216172134540287360ULL,
                                               607988272756665600ULL,
                                               16172922978634559625ULL,
                                               8476171486693032832ULL,
                                               10595114339597558777ULL,
                                               2904607092377533576ULL};
  EXPECT_EQ(first_outputs(stream, 10), expected);
}

RC_GTEST_PROP(RandomStream, IsDeterminedBySeedIndexAndDomain, (std::uint64_t seed, std::uint64_t index)) {
  const StreamDomain domain = *rc::gen::elementOf(kAllDomains);
  RC_ASSERT(first_outputs(RandomStream(seed, index, domain), 16) ==
            first_outputs(RandomStream(seed, index, domain), 16));
}

// The derivation of a stream from (seed, index, domain) fixes every number rbmix produces for a given seed; these
// first words pin it, so a change to the seeding (which would change every published result) cannot pass silently.
TEST(RandomStream, SeedingIsPinned) {
  EXPECT_EQ(first_outputs(RandomStream(1, 0, StreamDomain::chains), 3),
            (std::vector<std::uint64_t>{0x89abd7d1c6c7d092ULL, 0x0598f71fefc8217eULL, 0x09ea95d66af9ee3eULL}));
  EXPECT_EQ(first_outputs(RandomStream(1, 1, StreamDomain::chains), 3),
            (std::vector<std::uint64_t>{0x19f755a226e9922cULL, 0x98b6e802da34264fULL, 0x54d7eab6a395b4e8ULL}));
  EXPECT_EQ(first_outputs(RandomStream(1, 0, StreamDomain::data), 3),
            (std::vector<std::uint64_t>{0x194183070de9681cULL, 0xb092df830b00a079ULL, 0x560cdb1980ac8073ULL}));
  EXPECT_EQ(first_outputs(RandomStream(20131127, 7, StreamDomain::tempering), 3),
            (std::vector<std::uint64_t>{0x197e86e36790b089ULL, 0xaddc9b521a2eeb36ULL, 0x2fafb10c9c7065d0ULL}));
}

TEST(RandomStream, DefaultDomainIsChains) {
  EXPECT_EQ(first_outputs(RandomStream(5, 3), 8), first_outputs(RandomStream(5, 3, StreamDomain::chains), 8));
}

// Streams that differ in seed, index or domain must not share numbers. A collision among N independent 64-bit
// words has probability about N²/2^65 ≈ 6·10^-12 for these 7·10·200 streams, so any repeat is a seeding fault.
TEST(RandomStream, StreamsOfDifferentSeedsIndicesAndDomainsAllDiffer) {
  std::set<std::uint64_t> first_words;
  std::size_t streams = 0;
  for (const StreamDomain domain : kAllDomains)
    for (std::uint64_t seed = 0; seed < 10; ++seed)
      for (std::uint64_t index = 0; index < 200; ++index, ++streams)
        first_words.insert(RandomStream(seed, index, domain)());
  EXPECT_EQ(first_words.size(), streams);
}

RC_GTEST_PROP(RandomStream, ChangingOnlyTheIndexChangesTheSequence, (std::uint64_t seed, std::uint64_t index)) {
  const std::uint64_t other = index + *rc::gen::inRange<std::uint64_t>(1, 1000);
  RC_ASSERT(first_outputs(RandomStream(seed, index), 4) != first_outputs(RandomStream(seed, other), 4));
}

RC_GTEST_PROP(RandomStream, ChangingOnlyTheDomainChangesTheSequence, (std::uint64_t seed, std::uint64_t index)) {
  const auto domains = *rc::gen::unique<std::vector<StreamDomain>>(2, rc::gen::elementOf(kAllDomains));
  RC_ASSERT(first_outputs(RandomStream(seed, index, domains[0]), 4) !=
            first_outputs(RandomStream(seed, index, domains[1]), 4));
}

// Checkpoints save state() and resume from it: the restored stream continues the saved sequence exactly.
RC_GTEST_PROP(RandomStream, RestoredFromItsStateContinuesTheSameSequence, (std::uint64_t seed)) {
  RandomStream stream(seed, 0);
  const int drawn = *rc::gen::inRange(0, 100);
  for (int k = 0; k < drawn; ++k) stream();
  RandomStream restored(stream.state());
  RC_ASSERT(first_outputs(restored, 16) == first_outputs(stream, 16));
}

TEST(RandomStream, UniformIsZeroForTheSmallestOutput) {
  // s₁ = 0 makes the output 0 (see the published vector's second value).
  EXPECT_EQ(RandomStream(RandomStream::State{1, 0, 3, 4}).uniform(), 0.0);
  EXPECT_EQ(RandomStream(RandomStream::State{1, 0, 3, 4}).uniform_float(), 0.0F);
}

// The largest output must map below 1 in both precisions, so that u < p is exactly true for p = 1. Rounding a
// double in [0, 1) to float would give exactly 1.0f here.
TEST(RandomStream, UniformStaysBelowOneForTheLargestOutput) {
  const std::uint64_t largest = std::numeric_limits<std::uint64_t>::max();
  ASSERT_EQ(stream_whose_next_output_is(largest)(), largest);
  const double as_double = stream_whose_next_output_is(largest).uniform();
  const float as_float = stream_whose_next_output_is(largest).uniform_float();
  EXPECT_LT(as_double, 1.0);
  EXPECT_LT(as_float, 1.0F);
  EXPECT_EQ(as_double, 1.0 - 0x1.0p-53);
  EXPECT_EQ(as_float, 1.0F - 0x1.0p-24F);
}

RC_GTEST_PROP(RandomStream, UniformIsAMultipleOfItsResolutionInZeroOne, (std::uint64_t output)) {
  const double as_double = stream_whose_next_output_is(output).uniform();
  const float as_float = stream_whose_next_output_is(output).uniform_float();
  RC_ASSERT(as_double >= 0.0);
  RC_ASSERT(as_double < 1.0);
  RC_ASSERT(as_float >= 0.0F);
  RC_ASSERT(as_float < 1.0F);
  // The top 53 (24) bits of the output, scaled: exactly representable, so the products are exact.
  RC_ASSERT(as_double * 0x1.0p53 == static_cast<double>(output >> 11));
  RC_ASSERT(as_float * 0x1.0p24F == static_cast<float>(output >> 40));
}

RC_GTEST_PROP(RandomStream, UniformAsPicksThePathOfTheScalar, (std::uint64_t seed)) {
  RC_ASSERT(RandomStream(seed, 0).uniform_as<float>() == RandomStream(seed, 0).uniform_float());
  RC_ASSERT(RandomStream(seed, 0).uniform_as<double>() == RandomStream(seed, 0).uniform());
}

TEST(RandomStream, UniformDoublePassesKolmogorovSmirnov) {
  constexpr std::size_t kDraws = 100000;
  RandomStream stream(20131127, 0, StreamDomain::experiment);
  std::vector<double> sample(kDraws);
  for (auto& u : sample) u = stream.uniform();
  EXPECT_LT(kolmogorov_smirnov_statistic(sample, [](double u) { return u; }), kolmogorov_smirnov_bound(kDraws));
}

// 256 bins divide the 2^24 float values evenly, so every bin is exactly equally likely.
TEST(RandomStream, UniformFloatPassesChiSquaredOnEqualBins) {
  constexpr std::size_t kBins = 256;
  constexpr double kDrawsPerBin = 1000;
  RandomStream stream(20131127, 1, StreamDomain::experiment);
  std::vector<double> counts(kBins, 0.0);
  for (std::size_t k = 0; k < kBins * static_cast<std::size_t>(kDrawsPerBin); ++k)
    counts[static_cast<std::size_t>(stream.uniform_float() * static_cast<float>(kBins))] += 1;
  EXPECT_LT(chi_squared_statistic(counts, kDrawsPerBin), chi_squared_critical_value(kBins));
}

TEST(RandomStream, NormalPassesKolmogorovSmirnovAgainstTheStandardNormal) {
  constexpr std::size_t kDraws = 100000;
  RandomStream stream(20131127, 2, StreamDomain::experiment);
  std::vector<double> sample(kDraws);
  for (auto& x : sample) x = stream.normal();
  const auto standard_normal_cdf = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  EXPECT_LT(kolmogorov_smirnov_statistic(sample, standard_normal_cdf), kolmogorov_smirnov_bound(kDraws));
}

RC_GTEST_PROP(RandomStream, BelowStaysInRange, (std::uint64_t seed)) {
  const auto bound = *rc::gen::inRange<std::uint64_t>(1, std::numeric_limits<std::uint64_t>::max());
  RandomStream stream(seed, 0);
  for (int k = 0; k < 32; ++k) RC_ASSERT(stream.below(bound) < bound);
}

TEST(RandomStream, BelowOneIsAlwaysZero) {
  RandomStream stream(3, 0);
  for (int k = 0; k < 100; ++k) EXPECT_EQ(stream.below(1), 0U);
}

TEST(RandomStream, BelowSixPassesChiSquared) {
  constexpr std::size_t kBound = 6;
  constexpr double kDrawsPerValue = 10000;
  RandomStream stream(20131127, 3, StreamDomain::experiment);
  std::vector<double> counts(kBound, 0.0);
  for (std::size_t k = 0; k < kBound * static_cast<std::size_t>(kDrawsPerValue); ++k) counts[stream.below(kBound)] += 1;
  EXPECT_LT(chi_squared_statistic(counts, kDrawsPerValue), chi_squared_critical_value(kBound));
}

// For bound = 3·2^62, "output mod bound" would put half the draws below 2^62 instead of a third: a modulo-biased
// generator fails this by about 60 standard errors.
TEST(RandomStream, BelowAHugeBoundHasNoModuloBias) {
  constexpr std::uint64_t kQuarter = std::uint64_t{1} << 62;
  constexpr int kDraws = 30000;
  RandomStream stream(20131127, 4, StreamDomain::experiment);
  int below_quarter = 0;
  for (int k = 0; k < kDraws; ++k) below_quarter += stream.below(3 * kQuarter) < kQuarter ? 1 : 0;
  // Normal approximation of the binomial count; 5.5 standard errors leave a two-sided chance of 4·10^-8.
  const double standard_error = std::sqrt(kDraws * (1.0 / 3.0) * (2.0 / 3.0));
  EXPECT_NEAR(below_quarter, kDraws / 3.0, 5.5 * standard_error);
}

}  // namespace
}  // namespace rbmix
