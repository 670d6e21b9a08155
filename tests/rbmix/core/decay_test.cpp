#include "rbmix/core/decay.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace rbmix {
namespace {

// Units in the last place between two non-negative numbers of one type: their bit patterns are ordered as the
// numbers are, so the distance of the patterns counts the representable numbers between them.
template <typename Scalar>
std::int64_t ulp_distance(Scalar a, Scalar b) {
  using Bits = std::conditional_t<sizeof(Scalar) == 8, std::int64_t, std::int32_t>;
  Bits bits_a, bits_b;
  std::memcpy(&bits_a, &a, sizeof a);
  std::memcpy(&bits_b, &b, sizeof b);
  return bits_a > bits_b ? std::int64_t{bits_a} - bits_b : std::int64_t{bits_b} - bits_a;
}

// e^{−|x|} rounded to Scalar from a long double exp (glibc's long double exp is accurate far beyond double).
template <typename Scalar>
Scalar reference_decay(Scalar x) {
  return static_cast<Scalar>(std::exp(-std::fabs(static_cast<long double>(x))));
}

template <typename Scalar>
Scalar decay_of(Scalar x) {
  Scalar decay;
  exp_of_negative_magnitude(&x, &decay, 1);
  return decay;
}

// Over the whole range, subnormal results and the underflow to 0 included, in steps that visit every binade of
// |x| from 2^−30 on and every part of the reduction interval: within 2 ulp of the correctly rounded value (the
// measured worst is 1 ulp in both types).
template <typename Scalar>
void check_accuracy_over_the_range(Scalar largest) {
  std::vector<Scalar> inputs;
  for (Scalar x = Scalar(0x1p-30); x < largest; x *= Scalar(1.0001)) inputs.push_back(x);
  for (int k = 0; k < 200000; ++k) inputs.push_back(largest * Scalar(k) / Scalar(200000));
  const std::size_t count = inputs.size();
  for (std::size_t k = 0; k < count; ++k) inputs.push_back(-inputs[k]);
  std::vector<Scalar> decays(inputs.size());
  exp_of_negative_magnitude(inputs.data(), decays.data(), static_cast<std::ptrdiff_t>(inputs.size()));
  std::int64_t worst = 0;
  Scalar worst_input = 0;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const std::int64_t distance = ulp_distance(decays[k], reference_decay(inputs[k]));
    if (distance > worst) {
      worst = distance;
      worst_input = inputs[k];
    }
  }
  EXPECT_LE(worst, 2) << "at x = " << worst_input;
}

TEST(Decay, WithinTwoUlpOfTheCorrectlyRoundedValueInDouble) { check_accuracy_over_the_range(760.0); }
TEST(Decay, WithinTwoUlpOfTheCorrectlyRoundedValueInFloat) { check_accuracy_over_the_range(110.0f); }

template <typename Scalar>
void check_special_values() {
  constexpr Scalar infinity = std::numeric_limits<Scalar>::infinity();
  EXPECT_EQ(decay_of(Scalar(0)), Scalar(1));
  EXPECT_EQ(decay_of(-Scalar(0)), Scalar(1));
  EXPECT_EQ(decay_of(infinity), Scalar(0));
  EXPECT_EQ(decay_of(-infinity), Scalar(0));
  EXPECT_TRUE(std::isnan(decay_of(std::numeric_limits<Scalar>::quiet_NaN())));
  EXPECT_EQ(decay_of(std::numeric_limits<Scalar>::max()), Scalar(0));
  // The smallest subnormal is e^{−|x|} for |x| = −log(denorm_min) (rounded to nearest); beyond half of it, 0.
  const Scalar smallest = std::numeric_limits<Scalar>::denorm_min();
  const auto smallest_log = static_cast<Scalar>(-std::log(static_cast<long double>(smallest)));
  EXPECT_EQ(decay_of(smallest_log), reference_decay(smallest_log));
  EXPECT_GT(decay_of(smallest_log), Scalar(0));
  EXPECT_EQ(decay_of(smallest_log + Scalar(1)), Scalar(0));
}

TEST(Decay, SpecialValuesInDouble) { check_special_values<double>(); }
TEST(Decay, SpecialValuesInFloat) { check_special_values<float>(); }

// A decay depends on its input only: computed alone, or anywhere in a block of any length (whole vectors and a
// padded rest), it is the same number. The batched sampler's blocks, the exact tables' single block and another
// thread count all see the same probabilities.
template <typename Scalar>
void check_position_independence() {
  const auto values = *rc::gen::container<std::vector<Scalar>>(rc::gen::map(
      rc::gen::inRange(-800000, 800000), [](int k) { return static_cast<Scalar>(k) / Scalar(1000); }));
  const auto offset = *rc::gen::inRange<std::size_t>(0, 17);
  std::vector<Scalar> inputs(offset, Scalar(3));
  inputs.insert(inputs.end(), values.begin(), values.end());
  std::vector<Scalar> decays(inputs.size());
  exp_of_negative_magnitude(inputs.data(), decays.data(), static_cast<std::ptrdiff_t>(inputs.size()));
  for (std::size_t k = 0; k < values.size(); ++k) RC_ASSERT(decays[offset + k] == decay_of(values[k]));
}

RC_GTEST_PROP(Decay, DependsOnTheInputOnlyInDouble, ()) { check_position_independence<double>(); }
RC_GTEST_PROP(Decay, DependsOnTheInputOnlyInFloat, ()) { check_position_independence<float>(); }

// σ from the decays: σ(0) = ½ exactly, σ(x) + σ(−x) = 1 to rounding, within 4 ulp of 1/(1 + e^{−x}) (2 from the
// decay, one from the sum, one from the division), saturating to exactly 0 and 1 without overflow.
template <typename Scalar>
void check_logistic(Scalar x) {
  Scalar inputs[2] = {x, -x};
  Scalar probabilities[2];
  logistic(inputs, probabilities, 2);
  const long double exact = 1.0L / (1.0L + std::exp(-static_cast<long double>(x)));
  RC_ASSERT(ulp_distance(probabilities[0], static_cast<Scalar>(exact)) <= 4);
  RC_ASSERT(std::fabs(probabilities[0] + probabilities[1] - Scalar(1)) <= 2 * std::numeric_limits<Scalar>::epsilon());
}

RC_GTEST_PROP(Logistic, MatchesTheClosedFormInDouble, (int thousandths)) {
  check_logistic(static_cast<double>(thousandths % 800000) / 1000.0);
}
RC_GTEST_PROP(Logistic, MatchesTheClosedFormInFloat, (int thousandths)) {
  check_logistic(static_cast<float>(thousandths % 110000) / 1000.0f);
}

TEST(Logistic, IsExactlyOneHalfAtZeroAndSaturatesExactly) {
  const double inputs[4] = {0.0, 800.0, -800.0, std::numeric_limits<double>::infinity()};
  double probabilities[4];
  logistic(inputs, probabilities, 4);
  EXPECT_EQ(probabilities[0], 0.5);
  EXPECT_EQ(probabilities[1], 1.0);
  EXPECT_EQ(probabilities[2], 0.0);
  EXPECT_EQ(probabilities[3], 1.0);
}

}  // namespace
}  // namespace rbmix
