// What the trajectory monitor (log Z along training, docs/algorithms/log-partition-along-training.md) adds to an
// update at the MNIST shape (784 visible, 500 hidden, batch 100), as a paired A/B in one process: two trainers with
// the same options, one watched by the proxies (which do nothing between evaluations) and one by the trajectory
// monitor with its defaults (100 particles, annealed every 1 000 updates), step alternately, so that other work on
// the machine slows both alike. Each run is 1 000 pairs of updates, one whole stride, so that the monitor's
// annealing, which comes in one burst per stride, is counted once.
// The counter added_cost is the trajectory trainer's time over the plain trainer's, minus 1. Arguments: the algorithm
// (0: PCD-1, 1: CD-25, 2: CD-1), whether the update runs in float, and the updates both trainers make before the
// measured ones: the monitor takes more annealing steps where the model moves faster, early in training (§11.9).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "rbmix/random/random_stream.hpp"
#include "rbmix/training/trainer.hpp"

namespace {

constexpr Eigen::Index visible_units = 784;
constexpr Eigen::Index hidden_units = 500;
constexpr Eigen::Index batch_rows = 100;
constexpr Eigen::Index data_rows = 1000;

// MNIST-like rows: each the union of two random strokes (bars two pixels wide) of a 28 × 28 image, about 14 % ones,
// so that the particles' share of ones, which sets the cost of the 0/1 products, is MNIST's order.
rbmix::MatrixD stroke_images() {
  rbmix::MatrixD images = rbmix::MatrixD::Zero(data_rows, visible_units);
  rbmix::RandomStream stream(7, 0, rbmix::StreamDomain::data);
  for (Eigen::Index row = 0; row < data_rows; ++row)
    for (int stroke = 0; stroke < 2; ++stroke) {
      const bool horizontal = stream.uniform() < 0.5;
      const auto position = static_cast<Eigen::Index>(stream.below(27));
      for (Eigen::Index along = 0; along < 28; ++along)
        for (Eigen::Index width = 0; width < 2; ++width)
          images(row, horizontal ? (position + width) * 28 + along : along * 28 + position + width) = 1.0;
    }
  return images;
}

double seconds_of_step(rbmix::Trainer& trainer) {
  const auto start = std::chrono::steady_clock::now();
  trainer.step();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void BM_TrajectoryMonitorCost(benchmark::State& state) {
  const auto algorithm = state.range(0);
  rbmix::TrainingOptions options;
  rbmix::apply_algorithm(options, algorithm == 0 ? rbmix::Algorithm::pcd : rbmix::Algorithm::cd);
  options.sampling_steps = algorithm == 1 ? 25 : 1;
  options.sample_in_float = state.range(1) == 1;
  options.batch_size = batch_rows;
  options.learning_rate = 0.05;
  options.evaluation_interval = 0;
  options.monitor.kind = rbmix::MonitorKind::proxies;
  const rbmix::MatrixD data = stroke_images();
  rbmix::Trainer plain(options, data, rbmix::MatrixD(), hidden_units);
  options.monitor.kind = rbmix::MonitorKind::trajectory;
  rbmix::Trainer tracked(options, data, rbmix::MatrixD(), hidden_units);
  for (std::int64_t warm_up = 0; warm_up < state.range(2); ++warm_up) {
    plain.step();
    tracked.step();
  }
  double plain_seconds = 0.0;
  double tracked_seconds = 0.0;
  for (auto _ : state) {
    plain_seconds += seconds_of_step(plain);
    tracked_seconds += seconds_of_step(tracked);
  }
  const auto pairs = static_cast<double>(state.iterations());
  state.counters["update_ms"] = 1e3 * plain_seconds / pairs;
  state.counters["tracked_update_ms"] = 1e3 * tracked_seconds / pairs;
  state.counters["added_cost"] = tracked_seconds / plain_seconds - 1.0;
  const char* names[] = {"PCD-1", "CD-25", "CD-1"};
  state.SetLabel(std::string(names[algorithm]) + (options.sample_in_float ? ", float" : ", double") + ", updates " +
                 std::to_string(state.range(2)) + " to " + std::to_string(state.range(2) + 1000));
}

BENCHMARK(BM_TrajectoryMonitorCost)
    ->Args({0, 1, 0})
    ->Args({1, 1, 0})
    ->Args({2, 1, 0})
    ->Args({0, 0, 0})
    ->Args({0, 1, 9000})
    ->Args({2, 1, 9000})
    ->UseRealTime()
    ->Iterations(1000)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
