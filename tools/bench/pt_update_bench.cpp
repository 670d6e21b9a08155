// Parallel tempering on the MNIST shape as 003 Table 2 trains it (analysis/rbmix/experiments/table2_rbms.cpp):
// 784 visible, 500 hidden, batch 100, 20 replicas (20-PT10), 10 sweeps per replica per update, Gibbs.
//
// BM_PtUpdate times today's path (UpdatePaths::replica_parallel_tempering off: replicas one after another, each
// product and draw on the whole team, every product formed) against the new one (each replica whole on one thread,
// no product at β = 0), one update of each in turn, on two trainers with the same seed, and prints the medians of
// the wall and process-CPU seconds per update and their ratios. The new path runs in double (the same numbers as
// the old, see the counter models_equal) or in float (options.sample_in_float: other numbers). Set OMP_NUM_THREADS
// (1 or 2): the trainer's thread tuner then keeps the team as set.
//
// BM_PtBreakdown: where today's update spends its time, by part (products, draws, swap energies), on chains brought
// to each replica's β by a few sweeps.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "rbmix/random/random_stream.hpp"
#include "rbmix/sampling/batched_chains.hpp"
#include "rbmix/training/negative_phase.hpp"
#include "rbmix/training/parallel_tempering.hpp"
#include "rbmix/training/trainer.hpp"

#include "process_cpu_time.hpp"

namespace {

constexpr Eigen::Index visible_units = 784;
constexpr Eigen::Index hidden_units = 500;
constexpr Eigen::Index batch_rows = 100;
constexpr Eigen::Index data_rows = 1000;
constexpr int replicas = 20;
constexpr int sweeps = 10;
constexpr double fraction_of_ones = 0.13;  // about MNIST's share of pixels above 1/2
constexpr int warm_up_updates = 2;

rbmix::MatrixD random_data() {
  rbmix::RandomStream stream(7, 0, rbmix::StreamDomain::data);
  rbmix::MatrixD data(data_rows, visible_units);
  for (Eigen::Index k = 0; k < data.size(); ++k) data.data()[k] = stream.uniform() < fraction_of_ones ? 1.0 : 0.0;
  return data;
}

rbmix::TrainingOptions table2_options(bool in_float) {
  rbmix::TrainingOptions options;
  options.negative_phase = rbmix::NegativePhaseKind::parallel_tempering;
  options.replicas = replicas;
  options.sampling_steps = sweeps;
  options.learning_rate = 0.01;
  options.batch_size = batch_rows;
  options.evaluation_interval = 0;
  options.sample_in_float = in_float;
  return options;
}

struct Seconds {
  double wall;
  double cpu;
};

Seconds timed_step(rbmix::Trainer& trainer) {
  const double cpu = rbmix_bench::process_cpu_seconds();
  const auto wall = std::chrono::steady_clock::now();
  trainer.step();
  const Seconds seconds{std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count(),
                        rbmix_bench::process_cpu_seconds() - cpu};
  return seconds;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

// Argument: the new path's precision (0 double, 1 float); the old path runs in double, as Table 2 trains.
void BM_PtUpdate(benchmark::State& state) {
  const bool in_float = state.range(0) == 1;
  const rbmix::MatrixD data = random_data();
  rbmix::Trainer old_trainer(table2_options(false), data, rbmix::MatrixD(), hidden_units,
                             {.replica_parallel_tempering = false});
  rbmix::Trainer new_trainer(table2_options(in_float), data, rbmix::MatrixD(), hidden_units);
  for (int update = 0; update < warm_up_updates; ++update) {
    timed_step(old_trainer);
    timed_step(new_trainer);
  }
  std::vector<double> old_wall, new_wall, old_cpu, new_cpu, wall_ratio, cpu_ratio;
  for (auto _ : state) {
    const Seconds old_seconds = timed_step(old_trainer);
    const Seconds new_seconds = timed_step(new_trainer);
    old_wall.push_back(old_seconds.wall);
    new_wall.push_back(new_seconds.wall);
    old_cpu.push_back(old_seconds.cpu);
    new_cpu.push_back(new_seconds.cpu);
    wall_ratio.push_back(old_seconds.wall / new_seconds.wall);
    cpu_ratio.push_back(old_seconds.cpu / new_seconds.cpu);
  }
  state.counters["old_ms"] = 1e3 * median(old_wall);
  state.counters["new_ms"] = 1e3 * median(new_wall);
  state.counters["old_cpu_ms"] = 1e3 * median(old_cpu);
  state.counters["new_cpu_ms"] = 1e3 * median(new_cpu);
  state.counters["wall_ratio"] = median(wall_ratio);
  state.counters["cpu_ratio"] = median(cpu_ratio);
  // In double the two trainers move through the same numbers when the old path's dense products run on one
  // thread (with a team, Eigen sums them in another order: see docs/performance.md).
  state.counters["models_equal"] = !in_float && old_trainer.model().weights == new_trainer.model().weights;
  state.SetLabel(std::string("old double vs new ") + (in_float ? "float" : "double") + ", " +
                 std::to_string(omp_get_max_threads()) + " threads");
}

BENCHMARK(BM_PtUpdate)->Arg(0)->Arg(1)->Iterations(7)->UseRealTime()->Unit(benchmark::kMillisecond);

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Today's negative phase part by part: per update, 20 × 10 sweeps of a hidden product and draw and a visible
// product and draw, then the 20 energies' products; the trainer's whole update alongside.
template <typename Scalar>
void BM_PtBreakdown(benchmark::State& state) {
  const rbmix::MatrixD data = random_data();
  rbmix::Trainer trainer(table2_options(std::is_same_v<Scalar, float>), data, rbmix::MatrixD(), hidden_units,
                         {.replica_parallel_tempering = false});
  for (int update = 0; update < warm_up_updates; ++update) trainer.step();
  const rbmix::BasicRbm<Scalar> rbm = trainer.model().template cast<Scalar>();
  const std::vector<double> betas = rbmix::uniform_inverse_temperatures(replicas);
  const rbmix::UnitRule rule = rbmix::GibbsRule{};
  std::vector<rbmix::BatchedChains<Scalar>> chains;
  for (int replica = 0; replica < replicas; ++replica) {
    chains.emplace_back(batch_rows, visible_units, hidden_units, 1, replica * batch_rows);
    chains.back().set_visible(data.topRows(batch_rows));
    for (int sweep = 0; sweep < 5; ++sweep) chains.back().sweep(rbm, rule, static_cast<Scalar>(betas[replica]));
  }
  rbmix::Matrix<Scalar> hidden_inputs, visible_inputs;
  double hidden_products = 0, hidden_draws = 0, visible_products = 0, visible_draws = 0, energies = 0, update = 0;
  for (auto _ : state) {
    for (int replica = 0; replica < replicas; ++replica) {
      const auto beta = static_cast<Scalar>(betas[replica]);
      for (int sweep = 0; sweep < sweeps; ++sweep) {
        auto start = Clock::now();
        rbm.binary_layer_inputs(rbmix::Layer::hidden, chains[replica].visible(), hidden_inputs, beta);
        hidden_products += seconds_since(start);
        start = Clock::now();
        chains[replica].sample_from_inputs(rbmix::Layer::hidden, hidden_inputs, rule);
        hidden_draws += seconds_since(start);
        start = Clock::now();
        rbm.binary_layer_inputs(rbmix::Layer::visible, chains[replica].hidden(), visible_inputs, beta);
        visible_products += seconds_since(start);
        start = Clock::now();
        chains[replica].sample_from_inputs(rbmix::Layer::visible, visible_inputs, rule);
        visible_draws += seconds_since(start);
      }
    }
    auto start = Clock::now();
    for (auto& replica : chains) benchmark::DoNotOptimize(replica.energies(rbm));
    energies += seconds_since(start);
    start = Clock::now();
    trainer.step();
    update += seconds_since(start);
  }
  const double per_update = 1e3 / static_cast<double>(state.iterations());
  state.counters["hidden_products_ms"] = per_update * hidden_products;
  state.counters["hidden_draws_ms"] = per_update * hidden_draws;
  state.counters["visible_products_ms"] = per_update * visible_products;
  state.counters["visible_draws_ms"] = per_update * visible_draws;
  state.counters["energies_ms"] = per_update * energies;
  state.counters["whole_update_ms"] = per_update * update;
  double visible_ones = 0, hidden_ones = 0;
  for (const auto& replica : chains) {
    visible_ones += static_cast<double>(replica.visible().mean()) / replicas;
    hidden_ones += static_cast<double>(replica.hidden().mean()) / replicas;
  }
  state.counters["visible_ones"] = visible_ones;
  state.counters["hidden_ones"] = hidden_ones;
}

BENCHMARK(BM_PtBreakdown<double>)->Iterations(3)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PtBreakdown<float>)->Iterations(3)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
