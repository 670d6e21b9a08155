// How exact analysis scales with the joint state count 2^{m+n} (m = n = 4 … 10, i.e. 2^8 … 2^20 states):
// one matrix-free sweep application, the matrix-free SLEM (Spectra on the deflated sweep), the structural
// ergodicity check (Tarjan + Jarvis–Shier on the staged graph) and what analyze runs for flip-the-state instead
// (sets of states carried through the sweep, ergodicity.hpp), where it fits the dense SLEM, and Gibbs's SLEM and
// energy τ through its reduced chain on one layer (factorised_sweep.hpp).
// RBMs: W ~ U[−1, 1] (seeded), zero biases. Counters report the SLEM found and the operator applications used.
#include <benchmark/benchmark.h>

#include <optional>

#include "rbmix/analysis/ergodicity.hpp"
#include "rbmix/analysis/factorised_sweep.hpp"
#include "rbmix/analysis/slem.hpp"
#include "rbmix/analysis/sweep_operator.hpp"
#include "rbmix/random/random_stream.hpp"

namespace {

using namespace rbmix;

constexpr std::uint64_t kSeed = 2013;

Rbm random_rbm(int units) {
  RandomStream stream(kSeed, static_cast<std::uint64_t>(units), StreamDomain::experiment);
  Rbm rbm(units, units);
  for (Eigen::Index i = 0; i < units; ++i)
    for (Eigen::Index j = 0; j < units; ++j) rbm.weights(i, j) = 2.0 * stream.uniform() - 1.0;
  return rbm;
}

UnitRule rule_of(int index) { return index == 0 ? UnitRule{GibbsRule{}} : UnitRule{FlipTheStateRule{}}; }

void set_states(benchmark::State& state, int units) {
  state.counters["states"] = static_cast<double>(std::uint64_t{1} << (2 * units));
}

void BM_SweepApplication(benchmark::State& state) {
  const int units = static_cast<int>(state.range(0));
  const analysis::SweepOperator op(random_rbm(units), rule_of(static_cast<int>(state.range(1))));
  VectorD x = VectorD::Ones(op.rows()), y(op.rows());
  for (auto _ : state) {
    op.perform_op(x.data(), y.data());
    benchmark::DoNotOptimize(y.data());
  }
  set_states(state, units);
}

void BM_MatrixFreeSlem(benchmark::State& state) {
  const int units = static_cast<int>(state.range(0));
  const Rbm rbm = random_rbm(units);
  const VectorD stationary = analysis::JointStateSpace(rbm).stationary_distribution(rbm);
  const analysis::SweepOperator op(rbm, rule_of(static_cast<int>(state.range(1))));
  analysis::SlemResult result;
  for (auto _ : state) result = analysis::matrix_free_slem(op, stationary);
  set_states(state, units);
  state.counters["slem"] = result.slem;
  state.counters["applications"] = static_cast<double>(result.operator_applications);
  state.counters["converged"] = result.converged;
}

void BM_DenseSlem(benchmark::State& state) {
  const int units = static_cast<int>(state.range(0));
  const Rbm rbm = random_rbm(units);
  analysis::SlemResult result;
  for (auto _ : state)
    result = analysis::dense_slem(analysis::sweep_transition_matrix(rbm, rule_of(static_cast<int>(state.range(1)))));
  set_states(state, units);
  state.counters["slem"] = result.slem;
}

void BM_StructuralErgodicity(benchmark::State& state) {
  const int units = static_cast<int>(state.range(0));
  const analysis::StagedSweepGraph graph(random_rbm(units), FlipTheStateRule{});
  analysis::ErgodicityReport report;
  for (auto _ : state) report = analysis::analyse_ergodicity(graph);
  set_states(state, units);
  state.counters["ergodic"] = report.ergodic();
}

// The check analyze runs: flip-the-state's tables hold deterministic transitions, so the shortcut for tables
// inside (0, 1) does not apply and the sets of states reachable in k sweeps decide.
void BM_SweepErgodicity(benchmark::State& state) {
  const int units = static_cast<int>(state.range(0));
  const Rbm rbm = random_rbm(units);
  const analysis::JointStateSpace space(rbm);
  const auto hidden = analysis::unit_transition_table(rbm, UnitRule{FlipTheStateRule{}}, Layer::hidden, 1.0,
                                                      Evaluation::structural);
  const auto visible = analysis::unit_transition_table(rbm, UnitRule{FlipTheStateRule{}}, Layer::visible, 1.0,
                                                       Evaluation::structural);
  analysis::ErgodicityReport report;
  for (auto _ : state) report = analysis::analyse_sweep_ergodicity(space, hidden, visible);
  set_states(state, units);
  state.counters["ergodic"] = report.ergodic();
}

// What analyze does for Gibbs beyond the dense limit: the layer conditionals, the reduced chain's SLEM and the
// energy τ by its fundamental matrix (the joint π and energies are formed outside the timed loop).
void BM_FactorisedSweep(benchmark::State& state) {
  const int units = static_cast<int>(state.range(0));
  const Rbm rbm = random_rbm(units);
  const analysis::JointStateSpace space(rbm);
  const VectorD stationary = space.stationary_distribution(rbm);
  const VectorD energy = space.energies(rbm);
  analysis::SlemResult result;
  std::optional<double> time;
  for (auto _ : state) {
    const analysis::FactorisedSweep factorised(rbm, GibbsRule{});
    result = factorised.slem();
    time = factorised.try_integrated_autocorrelation_time(stationary, energy);
  }
  set_states(state, units);
  state.counters["slem"] = result.slem;
  state.counters["tau"] = time.value_or(-1.0);
}

// range(0) = m = n, range(1) = 0 for Gibbs, 1 for flip-the-state.
BENCHMARK(BM_SweepApplication)->ArgsProduct({{4, 6, 8, 10}, {0, 1}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatrixFreeSlem)->ArgsProduct({{4, 6, 8, 10}, {0, 1}})->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_DenseSlem)->ArgsProduct({{4, 5}, {0, 1}})->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_FactorisedSweep)->DenseRange(4, 10, 2)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_StructuralErgodicity)->DenseRange(4, 10, 2)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_SweepErgodicity)->DenseRange(4, 10, 2)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
