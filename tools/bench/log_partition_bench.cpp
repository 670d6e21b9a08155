// Exact log Z by enumeration (exact_log_partition) on MNIST-sized models: m = 784 visible units, n hidden units
// enumerated (2^n states, each costing one row update and m softplus terms). Weights ~ N(0, 0.05²), biases 0,
// as a freshly initialised MNIST model. Expect the time to double with each hidden unit.
#include <benchmark/benchmark.h>

#include "rbmix/model/exact.hpp"
#include "rbmix/random/random_stream.hpp"

namespace {

constexpr Eigen::Index mnist_visible_units = 784;
constexpr double weight_standard_deviation = 0.05;

rbmix::Rbm random_mnist_rbm(Eigen::Index hidden) {
  rbmix::RandomStream stream(2008, 0, rbmix::StreamDomain::initialisation);
  rbmix::Rbm rbm(mnist_visible_units, hidden);
  for (Eigen::Index k = 0; k < rbm.weights.size(); ++k)
    rbm.weights.data()[k] = weight_standard_deviation * stream.normal();
  return rbm;
}

void BM_ExactLogPartition(benchmark::State& state) {
  const rbmix::Rbm rbm = random_mnist_rbm(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(rbmix::exact_log_partition(rbm));
  state.counters["states_per_second"] = benchmark::Counter(static_cast<double>(std::uint64_t{1} << state.range(0)),
                                                           benchmark::Counter::kIsIterationInvariantRate);
}

// The work runs on OpenMP threads, so wall-clock time is the measure (the main thread's CPU time is not).
BENCHMARK(BM_ExactLogPartition)->Arg(16)->Arg(20)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExactLogPartition)->Arg(25)->Iterations(1)->UseRealTime()->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
