// Tiny models, the bulk of a paper-scale grid: Bars & Stripes 4×4 (32 rows, full batch), 16 hidden units.
//   BM_SmallUpdate: one training update (CD-1 or PCD-1, Gibbs or flip-the-state, chains in double) of
//     Trainer::step, everything included: batch assembly, positive phase, the chains, the statistics, the parameter
//     step and the divergence check of Trainer::run.
//   BM_SmallSweep: one sweep of the 32 chains alone (BatchedChains::sweep), the arithmetic a sampler cannot avoid.
//   BM_SmallProducts: a PCD-1 update's six dense products alone, the floor under BM_SmallUpdate.
// Counter ns_per_unit_sample: the time over the units the update draws (32 chains × (16 + 16) units per sweep, plus
// the 32 × 16 hidden units CD draws to start its chains at the data), the figure issue-level goals are stated in.
#include <benchmark/benchmark.h>

#include <chrono>

#include "pcd_products.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/sampling/batched_chains.hpp"
#include "rbmix/training/trainer.hpp"

namespace {

constexpr int bars_and_stripes_side = 4;
constexpr Eigen::Index hidden_units = 16;

// The loop's wall-clock time over the units it drew, in nanoseconds (a plain number: Google Benchmark's inverted
// rate counters print it with a unit of seconds).
double nanoseconds_per_draw(std::chrono::steady_clock::time_point start, double draws) {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / draws;
}

rbmix::UnitRule rule_of(std::int64_t flip) {
  return flip == 1 ? rbmix::UnitRule{rbmix::FlipTheStateRule{}} : rbmix::UnitRule{rbmix::GibbsRule{}};
}

// Arguments: (persistent chains, flip-the-state).
void BM_SmallUpdate(benchmark::State& state) {
  const bool persistent = state.range(0) == 1;
  rbmix::TrainingOptions options;
  rbmix::apply_algorithm(options, persistent ? rbmix::Algorithm::pcd : rbmix::Algorithm::cd);
  options.rule = rule_of(state.range(1));
  options.batch_size = 0;  // full batch
  options.evaluation_interval = 0;
  options.updates = 1'000'000'000;  // the learning-rate schedule's horizon, never reached
  const rbmix::MatrixD data = rbmix::to_real(rbmix::bars_and_stripes(bars_and_stripes_side));
  rbmix::Trainer trainer(options, data, rbmix::MatrixD(), hidden_units);
  for (int warm_up = 0; warm_up < 10; ++warm_up) trainer.step();
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    trainer.step();
  }
  const auto chains = static_cast<double>(data.rows());
  const double draws_per_update =
      chains * static_cast<double>(data.cols() + hidden_units) + (persistent ? 0.0 : chains * hidden_units);
  state.counters["ns_per_unit_sample"] =
      nanoseconds_per_draw(start, draws_per_update * static_cast<double>(state.iterations()));
  state.SetLabel(std::string(persistent ? "PCD-1, " : "CD-1, ") + (state.range(1) == 1 ? "flip" : "gibbs"));
}

// Argument: flip-the-state.
void BM_SmallSweep(benchmark::State& state) {
  const rbmix::MatrixD data = rbmix::to_real(rbmix::bars_and_stripes(bars_and_stripes_side));
  rbmix::Rbm rbm(data.cols(), hidden_units);
  rbmix::RandomStream stream(3, 0, rbmix::StreamDomain::initialisation);
  for (Eigen::Index k = 0; k < rbm.weights.size(); ++k) rbm.weights.data()[k] = 0.5 * stream.normal();
  rbmix::BatchedChains<double> chains(data.rows(), data.cols(), hidden_units, 5);
  chains.set_visible(data);
  const rbmix::UnitRule rule = rule_of(state.range(0));
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    chains.sweep(rbm, rule);
    benchmark::DoNotOptimize(chains.visible().data());
  }
  state.counters["ns_per_unit_sample"] = nanoseconds_per_draw(
      start, static_cast<double>(data.rows() * (data.cols() + hidden_units)) * static_cast<double>(state.iterations()));
  state.SetLabel(state.range(0) == 1 ? "flip" : "gibbs");
}

// The floor under a PCD-1 update: its six dense products alone (pcd_products.hpp; double, as the update computes
// them), the data standing for the chains' visible states too. Its ns_per_unit_sample counts the draws of a PCD-1
// update, so it is the part of BM_SmallUpdate/1/x's figure that the products take.
void BM_SmallProducts(benchmark::State& state) {
  const rbmix::MatrixD data = rbmix::to_real(rbmix::bars_and_stripes(bars_and_stripes_side));
  rbmix::RandomStream stream(3, 0, rbmix::StreamDomain::initialisation);
  rbmix::MatrixD weights(hidden_units, data.cols());
  for (Eigen::Index k = 0; k < weights.size(); ++k) weights.data()[k] = 0.5 * stream.normal();
  rbmix::MatrixD hidden(data.rows(), hidden_units);
  for (Eigen::Index k = 0; k < hidden.size(); ++k) hidden.data()[k] = stream.uniform() < 0.5 ? 1.0 : 0.0;
  rbmix_bench::PcdProductOutputs<double> outputs(data.rows(), hidden_units, data.cols());
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) rbmix_bench::six_dense_pcd_products(data, weights, data, hidden, outputs);
  state.counters["ns_per_unit_sample"] = nanoseconds_per_draw(
      start, static_cast<double>(data.rows() * (data.cols() + hidden_units)) * static_cast<double>(state.iterations()));
  state.SetLabel("the six dense products of a PCD-1 update");
}

BENCHMARK(BM_SmallUpdate)->ArgsProduct({{0, 1}, {0, 1}})->MinTime(0.5)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SmallSweep)->Arg(0)->Arg(1)->MinTime(0.5)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SmallProducts)->MinTime(0.5)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
