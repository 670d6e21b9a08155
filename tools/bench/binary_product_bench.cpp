// The binary products (rbmix/model/binary_product.hpp) against Eigen's dense product, in one run:
//   BM_PcdUpdate: one PCD-1 update (Gibbs, batch 100, 784 visible, 100/500/2000 hidden, data with 13 % ones) with
//     the dense path forced and with the binary path, the update in float and in double, side by side.
//   BM_Product: each product of an update alone, binary and dense, at 13 % and 35 % ones for every shape and at
//     5–50 % for 500 hidden. Counters: ones (of the binary operand), ns_per_addition (binary: time over ones ×
//     output row length, the additions it does; dense: time over the multiply-adds of the dense product).
//   BM_SingleChainSweep: one long chain's energy trace (784 visible, 500 hidden, Gibbs), the sweep and energy as
//     record_energy_trace ran them before FixedRbm (every product packs W; in-place products off) against
//     record_energy_trace now, in interleaved rounds of 200 sweeps each; counters: the median over the rounds of
//     each path's time per sweep and of their ratio.
// The thresholds of binary_product.cpp (density_threshold) come from BM_Product's crossings. Wall-clock time: the
// work runs on OpenMP threads.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "rbmix/model/binary_product.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/sampling/energy_trace.hpp"
#include "rbmix/training/trainer.hpp"

namespace {

constexpr Eigen::Index visible_units = 784;
constexpr Eigen::Index batch_rows = 100;
constexpr Eigen::Index data_rows = 1000;
constexpr double data_fraction_of_ones = 0.13;  // about MNIST's share of pixels above 1/2

template <typename Scalar>
rbmix::Matrix<Scalar> random_binary(Eigen::Index rows, Eigen::Index cols, double fraction_of_ones,
                                    std::uint64_t index) {
  rbmix::RandomStream stream(7, index, rbmix::StreamDomain::data);
  rbmix::Matrix<Scalar> data(rows, cols);
  for (Eigen::Index k = 0; k < data.size(); ++k)
    data.data()[k] = stream.uniform() < fraction_of_ones ? Scalar(1) : Scalar(0);
  return data;
}

template <typename Scalar>
rbmix::Matrix<Scalar> random_dense(Eigen::Index rows, Eigen::Index cols, std::uint64_t index) {
  rbmix::RandomStream stream(11, index, rbmix::StreamDomain::experiment);
  rbmix::Matrix<Scalar> matrix(rows, cols);
  for (Eigen::Index k = 0; k < matrix.size(); ++k) matrix.data()[k] = static_cast<Scalar>(stream.uniform() - 0.5);
  return matrix;
}

// Arguments: (update in float, hidden units, binary path).
void BM_PcdUpdate(benchmark::State& state) {
  const bool in_float = state.range(0) == 1;
  const Eigen::Index hidden_units = state.range(1);
  const bool binary = state.range(2) == 1;
  rbmix::TrainingOptions options;
  rbmix::apply_algorithm(options, rbmix::Algorithm::pcd);
  options.sample_in_float = in_float;
  options.batch_size = batch_rows;
  options.evaluation_interval = 0;
  rbmix::Trainer trainer(options, random_binary<double>(data_rows, visible_units, data_fraction_of_ones, 0),
                         rbmix::MatrixD(), hidden_units, {.products = {.binary = binary}});
  for (int warm_up = 0; warm_up < 3; ++warm_up) trainer.step();
  for (auto _ : state) trainer.step();
  state.SetLabel(std::string(in_float ? "float" : "double") + " update, " + std::to_string(hidden_units) + " hidden, " +
                 (binary ? "binary" : "dense"));
}

enum class ProductKind { hidden_inputs, visible_inputs, statistics };

// Arguments: (kind, float, hidden units, ones per thousand in the binary operand, binary path).
template <typename Scalar>
void product_benchmark(benchmark::State& state) {
  const auto kind = static_cast<ProductKind>(state.range(0));
  const Eigen::Index hidden_units = state.range(2);
  const double fraction_of_ones = static_cast<double>(state.range(3)) / 1000.0;
  const bool binary = state.range(4) == 1;
  const auto weights = random_dense<Scalar>(hidden_units, visible_units, 1);
  const auto probabilities = random_dense<Scalar>(batch_rows, hidden_units, 2);
  // The binary operand: visible states for the hidden inputs and the statistic, hidden states for the visible inputs.
  const auto states = kind == ProductKind::visible_inputs
                          ? random_binary<Scalar>(batch_rows, hidden_units, fraction_of_ones, 3)
                          : random_binary<Scalar>(batch_rows, visible_units, fraction_of_ones, 4);
  rbmix::Matrix<Scalar> out;
  double seconds = 0.0;
  std::int64_t products = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    switch (kind) {
      case ProductKind::hidden_inputs:
        if (binary)
          rbmix::binary_times_transpose(states, weights, out);
        else
          out.noalias() = states * weights.transpose();
        break;
      case ProductKind::visible_inputs:
        if (binary)
          rbmix::binary_times(states, weights, out);
        else
          out.noalias() = states * weights;
        break;
      case ProductKind::statistics:
        if (binary)
          rbmix::transpose_times_binary(probabilities, states, out);
        else
          out.noalias() = probabilities.transpose() * states;
        break;
    }
    benchmark::DoNotOptimize(out.data());
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++products;
  }
  const double ones = states.sum();
  // Output row length of each selected addition: hidden units for both inputs of the hidden layer and ⟨h vᵀ⟩'s
  // columns, visible units for the visible inputs.
  const double row_length =
      kind == ProductKind::visible_inputs ? static_cast<double>(visible_units) : static_cast<double>(hidden_units);
  const double operations = binary ? ones * row_length : static_cast<double>(batch_rows * visible_units * hidden_units);
  state.counters["ones"] = ones;
  state.counters["ns_per_addition"] = 1e9 * seconds / static_cast<double>(products) / operations;
  static const char* names[] = {"c+Wv", "b+W'h", "H'V"};
  state.SetLabel(std::string(names[static_cast<int>(kind)]) + (sizeof(Scalar) == 4 ? " float " : " double ") +
                 std::to_string(hidden_units) + " hidden " + std::to_string(state.range(3) / 10.0).substr(0, 4) +
                 "% ones " + (binary ? "binary" : "dense"));
}

void BM_Product(benchmark::State& state) {
  if (state.range(1) == 1) {
    product_benchmark<float>(state);
  } else {
    product_benchmark<double>(state);
  }
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

// Argument: sampling in float (1) or double (0). W's entries are uniform in ±0.05 and the biases −2 (visible) and
// −1 (hidden), so about 12 % of the visible and a quarter of the hidden units are on, as in a model trained on
// MNIST: both products take the 0/1 path.
template <typename Scalar>
void single_chain_sweep(benchmark::State& state) {
  constexpr Eigen::Index hidden_units = 500;
  constexpr Eigen::Index sweeps_per_round = 200;
  rbmix::BasicRbm<Scalar> rbm(visible_units, hidden_units);
  rbm.weights = random_dense<Scalar>(hidden_units, visible_units, 5) * Scalar(0.1);
  rbm.visible_bias.setConstant(Scalar(-2));
  rbm.hidden_bias.setConstant(Scalar(-1));
  const rbmix::UnitRule rule = rbmix::GibbsRule{};
  rbmix::BatchedChains<Scalar> before(1, visible_units, hidden_units, 3);
  before.set_product_paths({.in_place = false});
  rbmix::BatchedChains<Scalar> now(1, visible_units, hidden_units, 3);
  std::vector<double> before_seconds;
  std::vector<double> now_seconds;
  std::vector<double> ratios;
  for (auto _ : state) {
    double energy_sum = 0.0;
    auto start = std::chrono::steady_clock::now();
    for (Eigen::Index sweep = 0; sweep < sweeps_per_round; ++sweep) {
      before.sweep(rbm, rule);
      energy_sum += static_cast<double>(before.energies(rbm)(0));
    }
    const double before_round = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    start = std::chrono::steady_clock::now();
    energy_sum += rbmix::record_energy_trace(now, rbm, rule, sweeps_per_round).sum();
    const double now_round = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    benchmark::DoNotOptimize(energy_sum);
    before_seconds.push_back(before_round / sweeps_per_round);
    now_seconds.push_back(now_round / sweeps_per_round);
    ratios.push_back(before_round / now_round);
  }
  state.counters["before_us_per_sweep"] = 1e6 * median(before_seconds);
  state.counters["now_us_per_sweep"] = 1e6 * median(now_seconds);
  state.counters["ratio"] = median(ratios);
  state.SetLabel(std::string(sizeof(Scalar) == 4 ? "float" : "double") + ", 784 x 500, one chain, " +
                 std::to_string(ratios.size()) + " rounds");
}

void BM_SingleChainSweep(benchmark::State& state) {
  if (state.range(0) == 1) {
    single_chain_sweep<float>(state);
  } else {
    single_chain_sweep<double>(state);
  }
}

void pcd_arguments(benchmark::internal::Benchmark* benchmark) {
  for (const int hidden : {100, 500, 2000})
    for (const int in_float : {1, 0})
      for (const int binary : {0, 1}) benchmark->Args({in_float, hidden, binary});
}

void product_arguments(benchmark::internal::Benchmark* benchmark) {
  for (const int kind : {0, 1, 2})
    for (const int in_float : {1, 0}) {
      for (const int hidden : {100, 500, 2000})
        for (const int permille : {50, 130, 200, 250, 300, 350, 400, 450, 500}) {
          if (hidden != 500 && permille != 130 && permille != 350) continue;
          for (const int binary : {0, 1}) benchmark->Args({kind, in_float, hidden, permille, binary});
        }
    }
}

BENCHMARK(BM_PcdUpdate)->Apply(pcd_arguments)->UseRealTime()->MinTime(1.0)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SingleChainSweep)->Arg(0)->Arg(1)->Iterations(9)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Product)->Apply(product_arguments)->UseRealTime()->MinTime(0.3)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
