#pragma once
// The decays d = e^{−|x|} of a block of unit inputs, from which every unit rule computes its probability
// (unit_rule.hpp). A vectorised exp that needs neither a division nor a general ldexp, because its argument is never
// positive: −|x| = n ln 2 + r with n an integer and |r| ≤ ln 2 / 2 (Cody & Waite's reduction, ln 2 split in two so
// that n·C₁ is exact), e^r from its Taylor polynomial (degree 13 in double, 7 in float: the truncation is below a
// tenth of an ulp), and 2^n built from its bits in two factors, so that results down to the smallest subnormal come
// out right and e^{−|x|} below half of it is 0. Eigen's exp for double divides (a rational approximation) and
// rescales in four factors for the full exponent range (build/bench/decay_bench: 1.12 against 0.71 ns per double on
// a Xeon with AVX-512; 2.30 against 2.31 ns on a Zen 3 with AVX2).
// The logistic σ(x) = 1/(1 + e^{−x}) of the positive phase, the statistics and the mean-field updates is computed
// from the same decays, with the formula of the Gibbs rule.
// Accuracy: within 2 ulp of the correctly rounded e^{−|x|} (tests/rbmix/core/decay_test.cpp checks it against a
// long double exp over the whole range); NaN stays NaN, ±∞ gives 0.
//
// Every entry goes through the same vector code, the last partial vector included (it is padded), so a decay
// depends on its input only: not on the block's length, alignment or position, nor on the thread count.
// GCC's vector extensions (shared by Clang), as in stream_lanes.hpp, as wide as the build's registers.
// Tried and not kept: the polynomial by Estrin's scheme (pairs of terms joined with r², r⁴, r⁸; a chain of four
// multiply-adds instead of Horner's thirteen, three more operations). On the Zen 3 it was no faster, 1.82–1.93
// against 1.76 ns per double (decay_bench, one thread): the decays are bound by the operations, not the chain.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "rbmix/core/vector_width.hpp"

namespace rbmix {

namespace decay_detail {

// The constants of the reduction and of the polynomial for one floating-point type.
template <typename Scalar>
struct ExpConstants;

template <>
struct ExpConstants<double> {
  using Bits = std::int64_t;
  static constexpr int mantissa_bits = 52;
  static constexpr Bits exponent_bias = 1023;
  // e^{−746} < 2^{−1075}, half the smallest subnormal: it and anything smaller round to 0.
  static constexpr double cutoff = 746.0;
  // Cephes' split of ln 2: C₁ has 16 significant bits, so n·C₁ is exact for |n| < 2^37.
  static constexpr double ln2_high = 0.693145751953125;
  static constexpr double ln2_low = 1.42860682030941723212e-6;
  static constexpr double log2e = 1.4426950408889634073599;
  // 1.5·2^52: adding it rounds to the nearest integer, which then sits in the low bits.
  static constexpr double round_shift = 0x1.8p52;
  static constexpr int degree = 13;
};

template <>
struct ExpConstants<float> {
  using Bits = std::int32_t;
  static constexpr int mantissa_bits = 23;
  static constexpr Bits exponent_bias = 127;
  // e^{−104} < 2^{−150}, half the smallest subnormal float.
  static constexpr float cutoff = 104.0f;
  static constexpr float ln2_high = 0.693359375f;  // 9 significant bits: n·C₁ exact for |n| < 2^15
  static constexpr float ln2_low = -2.12194440e-4f;
  static constexpr float log2e = 1.44269504088896341f;
  static constexpr float round_shift = 0x1.8p23f;
  static constexpr int degree = 7;
};

// 1/k! for k = degree … 0, highest first (Horner's order), in Scalar.
template <typename Scalar>
constexpr auto taylor_coefficients() {
  constexpr int degree = ExpConstants<Scalar>::degree;
  struct Coefficients {
    Scalar value[degree + 1];
  } coefficients{};
  double factorial = 1.0;
  for (int k = 1; k <= degree; ++k) factorial *= k;
  for (int k = degree; k >= 0; --k) {
    coefficients.value[degree - k] = static_cast<Scalar>(1.0 / factorial);
    factorial /= (k > 0 ? k : 1);
  }
  return coefficients;
}

// Vectors as wide as the build's registers (vector_width.hpp).
using DoubleVector = VectorOf<double, vector_bytes>::type;
using FloatVector = VectorOf<float, vector_bytes>::type;
using Int64Vector = VectorOf<std::int64_t, vector_bytes>::type;
using Int32Vector = VectorOf<std::int32_t, vector_bytes>::type;

// One vector (with AVX-512 eight doubles or sixteen floats) of decays.
template <typename Scalar>
struct DecayLanes {
  static constexpr int lanes = vector_bytes / sizeof(Scalar);
  using C = ExpConstants<Scalar>;
  static constexpr bool is_double = std::is_same_v<Scalar, double>;
  using Values = std::conditional_t<is_double, DoubleVector, FloatVector>;
  using Bits = std::conditional_t<is_double, Int64Vector, Int32Vector>;

  static Values run(Values x) {
    static constexpr auto coefficients = taylor_coefficients<Scalar>();
    const Values magnitude = x < Scalar(0) ? -x : x;
    const Values a = magnitude < C::cutoff ? magnitude : C::cutoff;  // NaN is put back at the end
    // n = round(−a·log₂e), held both as a float (n) and in the low bits of `shifted`.
    const Values shifted = C::round_shift - a * C::log2e;
    const Values n = shifted - C::round_shift;
    const Values r = (-a - n * C::ln2_high) - n * C::ln2_low;
    Values polynomial = Values{} + coefficients.value[0];
    for (int k = 1; k <= C::degree; ++k) polynomial = polynomial * r + coefficients.value[k];
    // 2^n = 2^{n₁}·2^{n₂} with n₁ = ⌊n/2⌋, n₂ = n − n₁: both factors are normal numbers for every n ≥ −2·bias.
    Bits exponent;
    std::memcpy(&exponent, &shifted, sizeof exponent);
    Bits round_shift_bits;
    const Values round_shift_vector = Values{} + C::round_shift;
    std::memcpy(&round_shift_bits, &round_shift_vector, sizeof round_shift_bits);
    exponent -= round_shift_bits;
    const Bits first = exponent >> 1;
    const Bits second = exponent - first;
    const Bits first_bits = (first + C::exponent_bias) << C::mantissa_bits;
    const Bits second_bits = (second + C::exponent_bias) << C::mantissa_bits;
    Values first_scale, second_scale;
    std::memcpy(&first_scale, &first_bits, sizeof first_scale);
    std::memcpy(&second_scale, &second_bits, sizeof second_scale);
    const Values decay = polynomial * first_scale * second_scale;
    return magnitude == magnitude ? decay : magnitude;
  }
};

}  // namespace decay_detail

// decays[k] = e^{−|inputs[k]|} for k < count. The arrays may be the same; otherwise they must not overlap.
template <typename Scalar>
void exp_of_negative_magnitude(const Scalar* inputs, Scalar* decays, std::ptrdiff_t count) {
  static_assert(std::is_same_v<Scalar, float> || std::is_same_v<Scalar, double>, "float or double");
  using Lanes = decay_detail::DecayLanes<Scalar>;
  using Values = typename Lanes::Values;
  constexpr int lanes = Lanes::lanes;
  std::ptrdiff_t k = 0;
  for (; k + lanes <= count; k += lanes) {
    Values x;
    std::memcpy(&x, inputs + k, sizeof x);
    const Values decay = Lanes::run(x);
    std::memcpy(decays + k, &decay, sizeof decay);
  }
  if (k < count) {
    const auto rest = static_cast<std::size_t>(count - k);
    Values x{};
    std::memcpy(&x, inputs + k, rest * sizeof(Scalar));
    const Values decay = Lanes::run(x);
    std::memcpy(decays + k, &decay, rest * sizeof(Scalar));
  }
}

// σ(x) from d = e^{−|x|}: 1/(1 + d) for x ≥ 0, d/(1 + d) for x < 0, neither of which overflows. One division of a
// selected numerator: the same numbers as two divisions behind a branch, and vectorisable.
template <typename Scalar>
Scalar logistic_from_decay(Scalar x, Scalar decay) {
  return (x >= Scalar(0) ? Scalar(1) : decay) / (Scalar(1) + decay);
}

// probabilities[k] = σ(inputs[k]) for k < count; the arrays must not overlap.
template <typename Scalar>
void logistic(const Scalar* __restrict inputs, Scalar* __restrict probabilities, std::ptrdiff_t count) {
  exp_of_negative_magnitude(inputs, probabilities, count);
  for (std::ptrdiff_t k = 0; k < count; ++k) probabilities[k] = logistic_from_decay(inputs[k], probabilities[k]);
}

}  // namespace rbmix
