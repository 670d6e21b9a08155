// The cost of tempering's exchanges (docs/algorithms/tempering-along-trajectory.md §10.3): one ladder step of R ladders
// on K rungs of the MNIST shape (784 × 500) against the same rungs swept as independent batched chains on the same
// kernels (2·s sweeps, no exchange), one of each in turn on one seed, and the median of the ratios of their process
// CPU seconds. The rungs are a temperature-like path of one random model (weights N(0, 0.05²), the size of a model a
// few epochs into training), with visible states of MNIST's share of ones; s is the benchmark's argument
// (--swap-interval). Set OMP_NUM_THREADS to fix the team.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "rbmix/random/random_stream.hpp"
#include "rbmix/sampling/tempering_ladder.hpp"

#include "process_cpu_time.hpp"

namespace {

constexpr Eigen::Index visible_units = 784;
constexpr Eigen::Index hidden_units = 500;
constexpr Eigen::Index rungs = 24;
constexpr Eigen::Index ladders = 16;
constexpr double weight_scale = 0.05;

std::vector<rbmix::Rbm> path_rungs() {
  rbmix::RandomStream stream(3, 0, rbmix::StreamDomain::experiment);
  rbmix::Rbm model(visible_units, hidden_units);
  for (Eigen::Index k = 0; k < model.weights.size(); ++k) model.weights.data()[k] = weight_scale * stream.normal();
  model.visible_bias.setConstant(-1.9);  // logit(0.13): MNIST's share of ones
  std::vector<rbmix::Rbm> out;
  for (Eigen::Index k = 0; k < rungs; ++k) {
    rbmix::Rbm rung = model;
    const double beta = static_cast<double>(k) / static_cast<double>(rungs - 1);
    rung.weights *= beta;
    out.push_back(rung);
  }
  return out;
}

void BM_LadderStepAgainstIndependentSweeps(benchmark::State& state) {
  const Eigen::Index swap_interval = state.range(0);
  const std::vector<rbmix::Rbm> models = path_rungs();
  rbmix::LadderChains<float> ladder(models, ladders, {rbmix::GibbsRule{}, swap_interval}, 1);
  std::vector<rbmix::BatchedChains<float>> independent;
  std::vector<rbmix::RbmF> models_in_float;
  for (Eigen::Index k = 0; k < rungs; ++k) {
    independent.emplace_back(ladders, visible_units, hidden_units, 1, static_cast<std::uint64_t>(k) * ladders);
    models_in_float.push_back(models[static_cast<std::size_t>(k)].cast<float>());
  }
  const rbmix::UnitRule gibbs = rbmix::GibbsRule{};
  for (int warm = 0; warm < 3; ++warm) ladder.step();
  std::vector<double> ratios;
  for (auto _ : state) {
    double start = rbmix_bench::process_cpu_seconds();
    ladder.step();
    const double ladder_seconds = rbmix_bench::process_cpu_seconds() - start;
    start = rbmix_bench::process_cpu_seconds();
    for (Eigen::Index sweep = 0; sweep < 2 * swap_interval; ++sweep)
      for (Eigen::Index k = 0; k < rungs; ++k)
        independent[static_cast<std::size_t>(k)].sweep(models_in_float[static_cast<std::size_t>(k)], gibbs);
    const double independent_seconds = rbmix_bench::process_cpu_seconds() - start;
    ratios.push_back(ladder_seconds / independent_seconds);
  }
  std::sort(ratios.begin(), ratios.end());
  state.counters["median_cost_ratio"] = ratios[ratios.size() / 2];
  state.counters["products_ratio"] = rbmix::LadderChains<float>::products_per_step(rungs, swap_interval) /
                                     (4.0 * static_cast<double>(rungs * swap_interval));
  state.counters["acceptance_min"] = ladder.statistics().acceptance().minCoeff();
}
BENCHMARK(BM_LadderStepAgainstIndependentSweeps)->Arg(1)->Arg(2)->Arg(3)->Iterations(30)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
