#pragma once
// Uniform draws from many RandomStreams at once: eight streams stepped together, one per lane of a vector of
// 64-bit words (GCC's vector extensions, which Clang shares: AVX-512 where the build has it, narrower registers or
// scalar code elsewhere). Each lane runs exactly its own stream's xoshiro256** step and conversion to [0, 1), so a
// draw is the same number whether its stream was stepped alone or in a lane: results, checkpoints and the
// independence from the thread count are unchanged. A chain's stream steps one draw after another, each step
// waiting on the last; eight chains side by side fill the vector unit instead (the batched sampler's draws were
// half of a tiny model's update). Eight draws of each stream are transposed in registers before they are stored
// (__builtin_shufflevector: GCC 12 or later, Clang).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "rbmix/random/random_stream.hpp"

namespace rbmix {

// Transposes an 8 × 8 block held as eight vectors of eight lanes: afterwards block[l][k] is the former block[k][l].
// Three rounds of two-vector shuffles (pairs of lanes, then pairs of pairs, then halves).
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

// For rows r = 0 … rows − 1 and units k = 0 … units − 1: uniforms[r·units + k] is the k-th next
// uniform_as<Scalar>() of streams[r], and every stream ends `units` draws further on, as if each had been drawn
// from in turn.
template <typename Scalar>
void draw_uniform_rows(RandomStream* streams, std::ptrdiff_t rows, std::ptrdiff_t units, Scalar* uniforms) {
  constexpr int lanes = 8;
  using Words = std::uint64_t __attribute__((vector_size(lanes * sizeof(std::uint64_t))));
  using Integers = std::int64_t __attribute__((vector_size(lanes * sizeof(std::int64_t))));
  using Floats = float __attribute__((vector_size(lanes * sizeof(float))));
  using Doubles = double __attribute__((vector_size(lanes * sizeof(double))));
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
      if constexpr (sizeof(Scalar) == sizeof(float)) {
        return __builtin_convertvector(__builtin_convertvector(result >> 40, Integers), Values) * 0x1.0p-24f;
      } else {
        return __builtin_convertvector(__builtin_convertvector(result >> 11, Integers), Values) * 0x1.0p-53;
      }
    };
    Scalar* out = uniforms + row * units;
    std::ptrdiff_t unit = 0;
    // Eight units at a time, the 8 × 8 block transposed in registers so that each row's eight draws are stored as
    // one vector, not one scalar per lane.
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

}  // namespace rbmix
