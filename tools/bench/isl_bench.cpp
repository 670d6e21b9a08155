// The ISL's test-time cost is N × rows × ⌈m/64⌉ XOR-popcount words (rbmix/estimation/hamming_histograms.hpp).
// This measures the histogram builder's word rate on MNIST-sized rows (m = 784, 13 words) against a plain popcount
// loop over the same words in the same run, single-threaded both, so the ratio says how close the builder comes to
// the machine's popcount rate. Counter "words/s": XOR-popcount words per second.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <vector>

#include "rbmix/estimation/hamming_histograms.hpp"
#include "rbmix/estimation/isl.hpp"
#include "rbmix/random/random_stream.hpp"

namespace {

using namespace rbmix;

constexpr Eigen::Index kUnits = 784;
constexpr Eigen::Index kQueries = 1000;
constexpr Eigen::Index kReferences = 10000;

BinaryMatrix random_rows(Eigen::Index rows, std::uint64_t index) {
  RandomStream stream(2011, index, StreamDomain::experiment);
  BinaryMatrix data(rows, kUnits);
  for (Eigen::Index k = 0; k < data.size(); ++k) data.data()[k] = stream.uniform() < 0.5 ? 1 : 0;
  return data;
}

void set_word_rate(benchmark::State& state, double words_per_iteration) {
  state.counters["words/s"] =
      benchmark::Counter(words_per_iteration * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// The machine's rate: every query against every reference, distances summed, no histogram.
void BM_PlainPopcountLoop(benchmark::State& state) {
  const PackedBinaryRows queries(random_rows(kQueries, 0), "queries");
  const PackedBinaryRows references(random_rows(kReferences, 1), "references");
  const Eigen::Index words = queries.words();
  for (auto _ : state) {
    std::uint64_t total = 0;
    for (Eigen::Index q = 0; q < kQueries; ++q)
      for (Eigen::Index r = 0; r < kReferences; ++r)
        total += hamming_distance(queries.row(q), references.row(r), words);
    benchmark::DoNotOptimize(total);
  }
  set_word_rate(state, static_cast<double>(kQueries * kReferences * words));
}
BENCHMARK(BM_PlainPopcountLoop)->Unit(benchmark::kMillisecond);

// The histograms the ISL needs, with `threads` threads. One thread is timed in CPU time like the plain loop, so the
// two rates compare even on a loaded machine; more threads are timed in wall time.
void BM_DistanceHistograms(benchmark::State& state) {
  omp_set_num_threads(static_cast<int>(state.range(0)));
  const BinaryMatrix query_rows = random_rows(kQueries, 0);
  const PackedBinaryRows references(random_rows(kReferences, 1), "references");
  for (auto _ : state) {
    DistanceHistograms histograms(PackedBinaryRows(query_rows, "queries"));
    histograms.add(references, 0, kReferences);
    benchmark::DoNotOptimize(histograms.counts(0));
  }
  set_word_rate(state, static_cast<double>(kQueries * kReferences * references.words()));
}
BENCHMARK(BM_DistanceHistograms)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DistanceHistograms)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Choosing β for one N on 1000 validation rows: independent of N once the histograms exist.
void BM_ChooseBandwidth(benchmark::State& state) {
  omp_set_num_threads(1);
  DistanceHistograms histograms(PackedBinaryRows(random_rows(kQueries, 0), "queries"));
  histograms.add(PackedBinaryRows(random_rows(kReferences, 1), "references"), 0, kReferences);
  for (auto _ : state) benchmark::DoNotOptimize(choose_bandwidth(histograms).beta);
}
BENCHMARK(BM_ChooseBandwidth)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
