#include "rbmix/random/stream_lanes.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

// The eight-lane cases without AVX-512: GCC notes the lambda's vector return at the end of this file too (-Wpsabi;
// see stream_lanes.hpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace rbmix {
namespace {

// Streams stepped in lanes draw exactly what each stream draws alone, in order, and end in the same state: for any
// number of rows (whole lanes and a remainder), any row length, float and double, every lane count (the build uses
// the one its registers fit: eight with AVX-512, four with AVX2, two otherwise), and streams that have already
// drawn different amounts (so the lanes hold unrelated states).
template <typename Scalar, int lanes>
void check_lanes_against_single_streams() {
  const auto rows = *rc::gen::inRange<std::ptrdiff_t>(0, 30);
  const auto units = *rc::gen::inRange<std::ptrdiff_t>(0, 40);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  std::vector<RandomStream> streams;
  for (std::ptrdiff_t row = 0; row < rows; ++row) {
    streams.emplace_back(seed, static_cast<std::uint64_t>(row));
    const int already_drawn = *rc::gen::inRange(0, 5);
    for (int draw = 0; draw < already_drawn; ++draw) streams.back()();
  }
  std::vector<RandomStream> alone = streams;
  std::vector<Scalar> uniforms(static_cast<std::size_t>(rows * units));
  draw_uniform_rows<Scalar, lanes>(streams.data(), rows, units, uniforms.data());
  for (std::ptrdiff_t row = 0; row < rows; ++row) {
    RandomStream& stream = alone[static_cast<std::size_t>(row)];
    for (std::ptrdiff_t unit = 0; unit < units; ++unit)
      RC_ASSERT(uniforms[static_cast<std::size_t>(row * units + unit)] == stream.uniform_as<Scalar>());
    RC_ASSERT(streams[static_cast<std::size_t>(row)].state() == stream.state());
  }
}

RC_GTEST_PROP(StreamLanes, DrawExactlyWhatEachStreamDrawsAloneInDouble, ()) {
  check_lanes_against_single_streams<double, native_stream_lanes>();
}
RC_GTEST_PROP(StreamLanes, DrawExactlyWhatEachStreamDrawsAloneInFloat, ()) {
  check_lanes_against_single_streams<float, native_stream_lanes>();
}
RC_GTEST_PROP(StreamLanes, EveryLaneCountDrawsWhatEachStreamDrawsAlone, ()) {
  check_lanes_against_single_streams<double, 2>();
  check_lanes_against_single_streams<float, 2>();
  check_lanes_against_single_streams<double, 4>();
  check_lanes_against_single_streams<float, 4>();
  check_lanes_against_single_streams<double, 8>();
  check_lanes_against_single_streams<float, 8>();
}

// A state whose next output is `word`: the output is rotl(s₁·5, 7)·9, so s₁ = rotr(word·9⁻¹, 7)·5⁻¹ (mod 2^64).
RandomStream::State state_giving(std::uint64_t word) {
  const auto inverse = [](std::uint64_t odd) {
    std::uint64_t x = odd;  // Newton's iteration doubles the correct low bits: 3 → 6 → … → 96 ≥ 64
    for (int step = 0; step < 5; ++step) x *= 2 - odd * x;
    return x;
  };
  const std::uint64_t rotated = word * inverse(9);
  const std::uint64_t times5 = (rotated >> 7) | (rotated << 57);
  return {0x0123456789abcdefULL, times5 * inverse(5), 0xfedcba9876543210ULL, 0x5555aaaa5555aaaaULL};
}

// The conversions at the ends of the range: the word of all ones gives the largest uniform below 1, the word 0
// gives 0 and the top bit alone gives ½, in every lane as alone (a lane converting through a signed or rounding
// path would differ here).
TEST(StreamLanes, ExtremeWordsConvertAsTheyDoAlone) {
  const std::uint64_t all_ones = ~std::uint64_t{0};
  const std::uint64_t top_bit = std::uint64_t{1} << 63;
  ASSERT_EQ(RandomStream(state_giving(all_ones))(), all_ones);
  const std::pair<std::uint64_t, double> cases[] = {
      {all_ones, 1.0 - 0x1.0p-53}, {std::uint64_t{0}, 0.0}, {top_bit, 0.5}};
  for (const auto& [word, expected] : cases) {
    std::vector<RandomStream> lanes(9, RandomStream(state_giving(word)));
    std::vector<double> doubles(9);
    draw_uniform_rows(lanes.data(), 9, 1, doubles.data());
    std::vector<RandomStream> float_lanes(9, RandomStream(state_giving(word)));
    std::vector<float> floats(9);
    draw_uniform_rows(float_lanes.data(), 9, 1, floats.data());
    for (int row = 0; row < 9; ++row) {
      EXPECT_EQ(doubles[static_cast<std::size_t>(row)], expected) << word;
      EXPECT_EQ(floats[static_cast<std::size_t>(row)], RandomStream(state_giving(word)).uniform_float()) << word;
    }
  }
}

}  // namespace
}  // namespace rbmix
