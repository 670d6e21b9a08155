// Throughput of 001's samplers (rbmix/sampling/sampling_process.hpp) on an MNIST-sized RBM (784 visible, 500
// hidden, W ~ U[−0.05, 0.05]): emitted samples per second for one chain, k = 1 for the stochastic samplers. The
// rates samplers pay for θ⁻ = θ + θ_F and the rank-one update of θ_F per sample on top of the sweep.
#include <benchmark/benchmark.h>
#include <omp.h>

#include "rbmix/random/random_stream.hpp"
#include "rbmix/sampling/sampling_process.hpp"

namespace {

using namespace rbmix;

constexpr Eigen::Index kVisible = 784;
constexpr Eigen::Index kHidden = 500;
constexpr Eigen::Index kSamplesPerIteration = 100;

Rbm mnist_sized_rbm() {
  RandomStream stream(2011, 0, StreamDomain::experiment);
  Rbm rbm(kVisible, kHidden);
  for (Eigen::Index k = 0; k < rbm.weights.size(); ++k) rbm.weights.data()[k] = 0.1 * stream.uniform() - 0.05;
  return rbm;
}

void BM_Sampler(benchmark::State& state) {
  omp_set_num_threads(1);
  const auto kind = static_cast<SamplerKind>(state.range(0));
  const Rbm rbm = mnist_sized_rbm();
  SamplerSettings settings;
  settings.kind = kind;
  settings.fast_learning_rate = kind == SamplerKind::gibbs ? 0.0 : kind == SamplerKind::herding ? 1.0 : 0.01;
  settings.fast_decay = kind == SamplerKind::sample_penalization ? 0.95 : 1.0;
  std::optional<SufficientStatistics> rates;
  if (needs_rates(kind)) {
    BinaryMatrix data(100, kVisible);
    RandomStream stream(2011, 1, StreamDomain::experiment);
    for (Eigen::Index k = 0; k < data.size(); ++k) data.data()[k] = stream.uniform() < 0.2 ? 1 : 0;
    rates = compute_rates(rbm, data, "bench data");
  }
  SamplingProcess process(rbm, settings, rates, 1, 2011);
  for (auto _ : state) benchmark::DoNotOptimize(process.run(kSamplesPerIteration).binary.data());
  state.SetLabel(to_string(kind));
  state.counters["samples/s"] = benchmark::Counter(
      static_cast<double>(kSamplesPerIteration) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Sampler)->DenseRange(0, 4)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
