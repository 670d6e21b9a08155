#pragma once
// Uniform draws from many RandomStreams at once: several streams stepped together, one per lane of a vector of
// 64-bit words (GCC's vector extensions, which Clang shares), as many as the build's registers hold
// (vector_width.hpp: eight with AVX-512, four with AVX2). Each lane runs exactly its own stream's xoshiro256** step
// and conversion to [0, 1), so a draw is the same number whether its stream was stepped alone or in a lane, and
// whatever the lane count: results, checkpoints and the independence from the thread count are unchanged. A
// chain's stream steps one draw after another, each step waiting on the last; chains side by side fill the vector
// unit instead (the batched sampler's draws were half of a tiny model's update). A square block of draws is
// transposed in registers before it is stored (__builtin_shufflevector: GCC 12 or later, Clang).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "rbmix/core/vector_width.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix {

// Transposes a square block of lanes × lanes held as `lanes` vectors (8, 4 or 2 of them): afterwards block[l][k] is
// the former block[k][l]. Rounds of two-vector shuffles: pairs of lanes, then pairs of pairs, then halves.
template <typename Vector>
void transpose_lanes(Vector (&block)[8]) {
  Vector a[8], b[8];
  for (int i = 0; i < 8; i += 2) {
    a[i] = __builtin_shufflevector(block[i], block[i + 1], 0, 8, 2, 10, 4, 12, 6, 14);
    a[i + 1] = __builtin_shufflevector(block[i], block[i + 1], 1, 9, 3, 11, 5, 13, 7, 15);
  }
  for (int i = 0; i < 8; i += 4) {
    for (int j = 0; j < 2; ++j) {
      b[i + j] = __builtin_shufflevector(a[i + j], a[i + j + 2], 0, 1, 8, 9, 4, 5, 12, 13);
      b[i + j + 2] = __builtin_shufflevector(a[i + j], a[i + j + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    }
  }
  // b[0 … 3] hold units 0–3 of lanes (0, 4), (1, 5), (2, 6), (3, 7); b[4 … 7] units 4–7 of the same lanes.
  for (int i = 0; i < 4; ++i) {
    block[i] = __builtin_shufflevector(b[i], b[i + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    block[i + 4] = __builtin_shufflevector(b[i], b[i + 4], 4, 5, 6, 7, 12, 13, 14, 15);
  }
}

template <typename Vector>
void transpose_lanes(Vector (&block)[4]) {
  Vector a[4];
  for (int i = 0; i < 4; i += 2) {
    a[i] = __builtin_shufflevector(block[i], block[i + 1], 0, 4, 2, 6);
    a[i + 1] = __builtin_shufflevector(block[i], block[i + 1], 1, 5, 3, 7);
  }
  // a[0] holds units 0 and 2 of lanes 0 and 1, a[1] units 1 and 3; a[2] and a[3] the same of lanes 2 and 3.
  block[0] = __builtin_shufflevector(a[0], a[2], 0, 1, 4, 5);
  block[1] = __builtin_shufflevector(a[1], a[3], 0, 1, 4, 5);
  block[2] = __builtin_shufflevector(a[0], a[2], 2, 3, 6, 7);
  block[3] = __builtin_shufflevector(a[1], a[3], 2, 3, 6, 7);
}

template <typename Vector>
void transpose_lanes(Vector (&block)[2]) {
  const Vector first = __builtin_shufflevector(block[0], block[1], 0, 2);
  block[1] = __builtin_shufflevector(block[0], block[1], 1, 3);
  block[0] = first;
}

// Streams stepped side by side: as many 64-bit words as the build's registers hold.
inline constexpr int native_stream_lanes = vector_bytes / static_cast<int>(sizeof(std::uint64_t));

// For rows r = 0 … rows − 1 and units k = 0 … units − 1: uniforms[r·units + k] is the k-th next
// uniform_as<Scalar>() of streams[r], and every stream ends `units` draws further on, as if each had been drawn
// from in turn. `lanes` (2, 4 or 8) is the native count but for the tests, which check every count on any machine.
// Eight lanes without AVX-512 (the tests) make GCC note that such vectors are returned differently there
// (-Wpsabi), of the lambda below, which never crosses a call boundary between builds.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
template <typename Scalar, int lanes = native_stream_lanes>
void draw_uniform_rows(RandomStream* streams, std::ptrdiff_t rows, std::ptrdiff_t units, Scalar* uniforms) {
  static_assert(lanes == 2 || lanes == 4 || lanes == 8, "transpose_lanes has blocks of 2, 4 and 8");
  using Words = typename VectorOf<std::uint64_t, lanes * sizeof(std::uint64_t)>::type;
#if defined(__AVX512DQ__)
  using Integers = typename VectorOf<std::int64_t, lanes * sizeof(std::int64_t)>::type;
#endif
  using Narrow = typename VectorOf<std::int32_t, lanes * sizeof(std::int32_t)>::type;
  using Floats = typename VectorOf<float, lanes * sizeof(float)>::type;
  using Doubles = typename VectorOf<double, lanes * sizeof(double)>::type;
  using Values = std::conditional_t<sizeof(Scalar) == sizeof(float), Floats, Doubles>;
  std::ptrdiff_t row = 0;
  for (; row + lanes <= rows; row += lanes) {
    Words s0, s1, s2, s3;
    for (int lane = 0; lane < lanes; ++lane) {
      const RandomStream::State& state = streams[row + lane].state();
      s0[lane] = state[0];
      s1[lane] = state[1];
      s2[lane] = state[2];
      s3[lane] = state[3];
    }
    // The next draw of every lane: RandomStream::operator(), lane by lane (x·5 and x·9 as shifts and adds, the same
    // words modulo 2^64), then RandomStream::uniform_as: the top 24 (float) or 53 (double) bits, exact in Scalar,
    // times 2^-24 or 2^-53.
    const auto next_draws = [&]() -> Values {
      const Words times5 = (s1 << 2) + s1;
      const Words rotated = (times5 << 7) | (times5 >> 57);
      const Words result = (rotated << 3) + rotated;
      const Words t = s1 << 17;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 45) | (s3 >> 19);
      // A vector instruction converts 64-bit integers only with AVX-512DQ; elsewhere GCC converts lane by lane
      // through the stack, which cost as much as the draws themselves (Zen 3, AVX2). The integers are below 2^24
      // or 2^53, so exact vector routes give the same numbers: for float, narrowed to 32-bit lanes first (on any
      // machine); for double without AVX-512DQ, each 32-bit half placed in the mantissa of 2^52 (2^52 + k is exact
      // for k < 2^52) and the two halves joined exactly.
      if constexpr (sizeof(Scalar) == sizeof(float)) {
        return __builtin_convertvector(__builtin_convertvector(result >> 40, Narrow), Values) * 0x1.0p-24f;
      } else {
#if defined(__AVX512DQ__)
        return __builtin_convertvector(__builtin_convertvector(result >> 11, Integers), Values) * 0x1.0p-53;
#else
        constexpr std::uint64_t two_to_52_bits = 0x4330000000000000;  // the bits of 2^52
        const Words bits = result >> 11;
        const Words high_bits = (bits >> 32) | two_to_52_bits;
        const Words low_bits = (bits & 0xffffffffu) | two_to_52_bits;
        Values high, low;
        std::memcpy(&high, &high_bits, sizeof high);
        std::memcpy(&low, &low_bits, sizeof low);
        return ((high - 0x1.0p52) * 0x1.0p32 + (low - 0x1.0p52)) * 0x1.0p-53;
#endif
      }
    };
    Scalar* out = uniforms + row * units;
    std::ptrdiff_t unit = 0;
    // `lanes` units at a time, the square block transposed in registers so that each row's draws are stored as one
    // vector, not one scalar per lane.
    for (; unit + lanes <= units; unit += lanes) {
      Values block[lanes];
      for (int k = 0; k < lanes; ++k) block[k] = next_draws();
      transpose_lanes(block);
      for (int lane = 0; lane < lanes; ++lane) std::memcpy(out + lane * units + unit, &block[lane], sizeof(Values));
    }
    for (; unit < units; ++unit) {
      const Values value = next_draws();
      for (int lane = 0; lane < lanes; ++lane) out[lane * units + unit] = value[lane];
    }
    for (int lane = 0; lane < lanes; ++lane)
      streams[row + lane] = RandomStream(RandomStream::State{s0[lane], s1[lane], s2[lane], s3[lane]});
  }
  for (; row < rows; ++row) {
    RandomStream stream = streams[row];  // a local copy keeps the state in registers
    Scalar* out = uniforms + row * units;
    for (std::ptrdiff_t unit = 0; unit < units; ++unit) out[unit] = stream.uniform_as<Scalar>();
    streams[row] = stream;
  }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace rbmix
