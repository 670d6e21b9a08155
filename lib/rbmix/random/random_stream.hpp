#pragma once
// RandomStream: a small, fast generator (xoshiro256**, Blackman & Vigna 2018) whose state is derived from
// (seed, stream index) by SplitMix64. Each chain, particle or trial owns the stream of its index, so results do
// not depend on how many threads share the work or in what order they run.
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace rbmix {

// Domains keep streams for different purposes apart: the chains of a sampler and the shuffling of a trainer
// seeded with the same seed never share numbers.
enum class StreamDomain : std::uint64_t {
  chains = 0x636861696e73ULL,
  data = 0x64617461ULL,
  initialisation = 0x696e6974ULL,
  tempering = 0x74656d70ULL,
  experiment = 0x65787065ULL,
  binarisation = 0x62696e61ULL,
  patch_sampling = 0x70617463ULL,
};

class RandomStream {
 public:
  using result_type = std::uint64_t;

  RandomStream(std::uint64_t seed, std::uint64_t index, StreamDomain domain = StreamDomain::chains) {
    std::uint64_t mix = seed ^ (static_cast<std::uint64_t>(domain) * 0x9e3779b97f4a7c15ULL);
    mix = splitmix64(mix) ^ (index + 0x632be59bd9b4e019ULL);
    for (auto& word : state_) word = splitmix64(mix);
  }

  // Restores a stream from state() (checkpoints): the restored stream continues the saved sequence exactly.
  using State = std::array<std::uint64_t, 4>;
  explicit RandomStream(const State& state) : state_(state) {}
  const State& state() const { return state_; }

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

  result_type operator()() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, 1): u < p is then exactly false for p = 0 and exactly true for p = 1.
  double uniform() { return static_cast<double>((*this)() >> 11) * 0x1.0p-53; }
  float uniform_float() { return static_cast<float>((*this)() >> 40) * 0x1.0p-24f; }
  template <typename Scalar>
  Scalar uniform_as() {
    if constexpr (sizeof(Scalar) == sizeof(float)) return uniform_float();
    else return uniform();
  }

  // Uniform integer in [0, bound) without modulo bias (Lemire 2019).
  std::uint64_t below(std::uint64_t bound) {
    __uint128_t product = static_cast<__uint128_t>((*this)()) * bound;
    auto low = static_cast<std::uint64_t>(product);
    if (low < bound) {
      const std::uint64_t threshold = (0 - bound) % bound;
      while (low < threshold) {
        product = static_cast<__uint128_t>((*this)()) * bound;
        low = static_cast<std::uint64_t>(product);
      }
    }
    return static_cast<std::uint64_t>(product >> 64);
  }

  // Standard normal by the polar method (no cached second value, so the stream stays a pure sequence).
  double normal() {
    for (;;) {
      const double x = 2.0 * uniform() - 1.0;
      const double y = 2.0 * uniform() - 1.0;
      const double s = x * x + y * y;
      if (s > 0.0 && s < 1.0) return x * std::sqrt(-2.0 * std::log(s) / s);
    }
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::array<std::uint64_t, 4> state_{};
};

}  // namespace rbmix
