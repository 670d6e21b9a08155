// One PCD-1 update on the MNIST shape (784 visible, 500 hidden, batch 100) against the matrix products it contains,
// measured in the same run, for the Gibbs and the flip-the-state operator and with the update in double or float.
// A PCD-1 update holds six products of the size 100 × 784 × 500, all in the update's precision: the positive hidden
// inputs and ⟨h vᵀ⟩, the hidden and visible inputs of the sweep, the negative E[h|v] inputs and ⟨h vᵀ⟩. The counter
// update_over_products is the update's time over the time of these six products as dense Eigen products: the
// update takes the 0/1-operand path where its operands are sparse (binary_product.hpp), so it can come in under
// 1 although it also does the element-wise work (exp, random numbers, comparisons) and the parameter step.
#include <benchmark/benchmark.h>

#include <chrono>

#include "pcd_products.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/training/trainer.hpp"

namespace {

constexpr Eigen::Index visible_units = 784;
constexpr Eigen::Index hidden_units = 500;
constexpr Eigen::Index batch_rows = 100;
constexpr Eigen::Index data_rows = 1000;
constexpr double fraction_of_ones = 0.13;  // about MNIST's share of pixels above 1/2
constexpr int product_repetitions = 20;

rbmix::MatrixD random_data() {
  rbmix::RandomStream stream(7, 0, rbmix::StreamDomain::data);
  rbmix::MatrixD data(data_rows, visible_units);
  for (Eigen::Index k = 0; k < data.size(); ++k) data.data()[k] = stream.uniform() < fraction_of_ones ? 1.0 : 0.0;
  return data;
}

template <typename Scalar>
rbmix::Matrix<Scalar> random_matrix(Eigen::Index rows, Eigen::Index cols, std::uint64_t index) {
  rbmix::RandomStream stream(11, index, rbmix::StreamDomain::experiment);
  rbmix::Matrix<Scalar> matrix(rows, cols);
  for (Eigen::Index k = 0; k < matrix.size(); ++k) matrix.data()[k] = static_cast<Scalar>(stream.uniform() < 0.5);
  return matrix;
}

// Seconds for the six products of one PCD-1 update as dense products in Scalar (mean of product_repetitions).
template <typename Scalar>
double six_products_seconds() {
  const auto batch = random_matrix<Scalar>(batch_rows, visible_units, 1);
  const auto weights = random_matrix<Scalar>(hidden_units, visible_units, 2);
  const auto chain_visible = random_matrix<Scalar>(batch_rows, visible_units, 3);
  const auto chain_hidden = random_matrix<Scalar>(batch_rows, hidden_units, 4);
  rbmix_bench::PcdProductOutputs<Scalar> outputs(batch_rows, hidden_units, visible_units);
  const auto start = std::chrono::steady_clock::now();
  for (int repetition = 0; repetition < product_repetitions; ++repetition)
    rbmix_bench::six_dense_pcd_products(batch, weights, chain_visible, chain_hidden, outputs);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / product_repetitions;
}

void BM_PcdUpdate(benchmark::State& state) {
  const bool in_float = state.range(0) == 1;
  const bool flip = state.range(1) == 1;
  rbmix::TrainingOptions options;
  rbmix::apply_algorithm(options, rbmix::Algorithm::pcd);
  options.rule = flip ? rbmix::UnitRule{rbmix::FlipTheStateRule{}} : rbmix::UnitRule{rbmix::GibbsRule{}};
  options.sample_in_float = in_float;
  options.batch_size = batch_rows;
  options.evaluation_interval = 0;
  rbmix::Trainer trainer(options, random_data(), rbmix::MatrixD(), hidden_units);
  for (int warm_up = 0; warm_up < 3; ++warm_up) trainer.step();
  double update_seconds = 0.0;
  std::int64_t updates = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    trainer.step();
    update_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++updates;
  }
  const double products = in_float ? six_products_seconds<float>() : six_products_seconds<double>();
  state.counters["products_ms"] = 1e3 * products;
  state.counters["update_over_products"] = update_seconds / static_cast<double>(updates) / products;
  state.SetLabel(std::string(in_float ? "float update, " : "double update, ") + (flip ? "flip" : "gibbs"));
}

// Arguments: (update in float, flip-the-state). The work runs on OpenMP threads: wall-clock time is the measure.
BENCHMARK(BM_PcdUpdate)
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({1, 0})
    ->Args({1, 1})
    ->UseRealTime()
    ->MinTime(2.0)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
