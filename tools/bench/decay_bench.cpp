// The decays e^{−|x|} every unit rule starts from (rbmix/core/decay.hpp) against Eigen's vectorised exp, the previous
// design, in one run: 1024 inputs (a tiny model's layer of 32 chains × 16 units, twice) spread over [−8, 8], float
// and double. Counter ns_per_value: the time per decay.
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <chrono>
#include <string>

#include "rbmix/core/decay.hpp"

namespace {

constexpr Eigen::Index block_size = 1024;

// Arguments: (float, rbmix's own): 0 for Eigen's (−|x|).exp().
template <typename Scalar>
void decay_benchmark(benchmark::State& state) {
  using Array = Eigen::Array<Scalar, 1, Eigen::Dynamic>;
  const Array inputs = Array::LinSpaced(block_size, Scalar(-8), Scalar(8));
  Array decays(block_size);
  const bool own = state.range(1) == 1;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    if (own) {
      rbmix::exp_of_negative_magnitude(inputs.data(), decays.data(), block_size);
    } else {
      decays = (-inputs.abs()).exp();
    }
    benchmark::DoNotOptimize(decays.data());
    benchmark::ClobberMemory();
  }
  // A plain number of nanoseconds (Google Benchmark's inverted rates print with a unit of seconds).
  state.counters["ns_per_value"] =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
      static_cast<double>(state.iterations() * block_size);
  state.SetLabel(std::string(sizeof(Scalar) == 4 ? "float, " : "double, ") + (own ? "rbmix" : "Eigen"));
}

void BM_Decay(benchmark::State& state) {
  if (state.range(0) == 1) {
    decay_benchmark<float>(state);
  } else {
    decay_benchmark<double>(state);
  }
}

BENCHMARK(BM_Decay)->ArgsProduct({{0, 1}, {0, 1}})->MinTime(0.3);

}  // namespace

BENCHMARK_MAIN();
