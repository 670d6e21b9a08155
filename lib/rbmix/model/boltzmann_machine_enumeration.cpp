#include "rbmix/model/boltzmann_machine_enumeration.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

// 2^6 blocks keep both cores busy with even shares while each block still enumerates ≥ 2^19 states at n = 25.
constexpr int kBlockBits = 6;
// Below 2^14 states the whole enumeration takes less than starting a team of threads costs on a busy machine.
constexpr Eigen::Index kMinimumParallelUnits = 14;

// One block: the top `block_bits` units fixed to the block index, the low units enumerated in Gray-code order.
struct BlockResult {
  double max_negative_energy = 0.0;
  double weight_sum = 0.0;          // Σ exp(−E − max)
  MatrixD weighted_second_moments;  // Σ exp(−E − max) x xᵀ, only when statistics are asked for
};

BlockResult enumerate_block(const BoltzmannMachine& model, int low_bits, std::uint64_t block, bool with_statistics,
                            VectorD& negative_energies) {
  const Eigen::Index n = model.size();
  const std::uint64_t count = std::uint64_t{1} << low_bits;
  VectorD state = VectorD::Zero(n);
  for (Eigen::Index unit = low_bits; unit < n; ++unit)
    state(unit) = static_cast<double>((block >> (unit - low_bits)) & 1U);
  VectorD fields = model.biases + model.couplings * state;
  double negative_energy = model.negative_energy(state);

  negative_energies.resize(static_cast<Eigen::Index>(count));
  negative_energies[0] = negative_energy;
  for (std::uint64_t step = 1; step < count; ++step) {
    const auto unit = static_cast<Eigen::Index>(std::countr_zero(step));  // the Gray code flips this unit now
    const double sign = state(unit) == 0.0 ? 1.0 : -1.0;
    negative_energy += sign * fields(unit);
    state(unit) += sign;
    fields += sign * model.couplings.row(unit).transpose();
    negative_energies[static_cast<Eigen::Index>(step)] = negative_energy;
  }

  BlockResult result;
  // An Eigen vector, not a mapped std::vector: Eigen's reductions start their packets at the first aligned element,
  // so a buffer whose address modulo the packet size differs between threads would sum in a different order and
  // make log Z depend on the thread that ran the block.
  VectorD& energies = negative_energies;
  result.max_negative_energy = energies.maxCoeff();
  energies.array() = (energies.array() - result.max_negative_energy).exp();  // now the weights
  if (!with_statistics) {
    result.weight_sum = energies.sum();
    return result;
  }

  // Σ_t w_t x_j(t) x(t) in O(n) per state: with the running sum P(t) = Σ_{s<t} w_s x(s), row j gains
  // P(off) − P(on) over each stretch in which x_j = 1. The diagonal gives Σ_t w_t x_j(t).
  MatrixD sums = MatrixD::Zero(n, n);
  MatrixD running_sum_at_switch_on = MatrixD::Zero(n, n);
  for (Eigen::Index unit = low_bits; unit < n; ++unit)
    state(unit) = static_cast<double>((block >> (unit - low_bits)) & 1U);
  state.head(low_bits).setZero();
  VectorD running_sum = VectorD::Zero(n);
  double cumulative = 0.0;
  for (std::uint64_t step = 0; step < count; ++step) {
    const double weight = energies(static_cast<Eigen::Index>(step));
    running_sum += weight * state;
    cumulative += weight;
    if (step + 1 == count) break;
    const auto unit = static_cast<Eigen::Index>(std::countr_zero(step + 1));
    if (state(unit) == 1.0) {
      sums.row(unit) += running_sum.transpose() - running_sum_at_switch_on.row(unit);
      state(unit) = 0.0;
    } else {
      running_sum_at_switch_on.row(unit) = running_sum.transpose();
      state(unit) = 1.0;
    }
  }
  for (Eigen::Index unit = 0; unit < n; ++unit)
    if (state(unit) == 1.0) sums.row(unit) += running_sum.transpose() - running_sum_at_switch_on.row(unit);
  result.weight_sum = cumulative;
  result.weighted_second_moments = std::move(sums);
  return result;
}

ExactBoltzmannMachineSummary enumerate(const BoltzmannMachine& model, bool with_statistics) {
  model.validate("Boltzmann machine");
  const Eigen::Index n = model.size();
  const Eigen::Index limit = with_statistics ? kMaxEnumeratedBoltzmannMachineUnits : kMaxEnumeratedLogPartitionUnits;
  require(n <= limit, "Boltzmann machine: exact enumeration is limited to " + std::to_string(limit) +
                          " units, the model has " + std::to_string(n));
  const int block_bits = static_cast<int>(std::min<Eigen::Index>(kBlockBits, n / 2));
  const int low_bits = static_cast<int>(n) - block_bits;
  const auto blocks = static_cast<std::int64_t>(1) << block_bits;
  std::vector<BlockResult> results(static_cast<std::size_t>(blocks));
#pragma omp parallel if (n >= kMinimumParallelUnits)
  {
    VectorD negative_energies;
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t block = 0; block < blocks; ++block)
      results[static_cast<std::size_t>(block)] =
          enumerate_block(model, low_bits, static_cast<std::uint64_t>(block), with_statistics, negative_energies);
  }

  double overall_max = results[0].max_negative_energy;
  for (const auto& result : results) overall_max = std::max(overall_max, result.max_negative_energy);
  double total = 0.0;
  MatrixD second_moments = MatrixD::Zero(n, n);
  for (const auto& result : results) {
    const double scale = std::exp(result.max_negative_energy - overall_max);
    total += scale * result.weight_sum;
    if (with_statistics) second_moments += scale * result.weighted_second_moments;
  }
  ExactBoltzmannMachineSummary summary;
  summary.log_partition = overall_max + std::log(total);
  if (with_statistics) {
    second_moments /= total;
    // Row j and column j were summed in different orders; their mean is exactly symmetric.
    second_moments = (0.5 * (second_moments + second_moments.transpose())).eval();
    summary.statistics.means = second_moments.diagonal();
    summary.statistics.second_moments = std::move(second_moments);
  }
  return summary;
}

}  // namespace

double exact_log_partition(const BoltzmannMachine& model) { return enumerate(model, false).log_partition; }

ExactBoltzmannMachineSummary exact_summary(const BoltzmannMachine& model) { return enumerate(model, true); }

double mean_log_likelihood(const BoltzmannMachine& model, const BinaryMatrix& data, double log_partition) {
  require(data.cols() == model.size(), "log-likelihood data: " + std::to_string(data.cols()) +
                                           " columns but the model has " + std::to_string(model.size()) + " units");
  require(data.rows() >= 1, "log-likelihood data: the data set has no rows");
  require((data.array() <= 1).all(), "log-likelihood data: every entry must be 0 or 1");
  const MatrixD states = data.cast<double>();
  const double mean_negative_energy =
      (0.5 * ((states * model.couplings).array() * states.array()).rowwise().sum() + (states * model.biases).array())
          .mean();
  return mean_negative_energy - log_partition;
}

BoltzmannMachineGradient exact_log_likelihood_gradient(const BoltzmannMachine& model,
                                                       const BoltzmannMachineStatistics& data_statistics) {
  return statistics_difference(data_statistics, exact_summary(model).statistics);
}

}  // namespace rbmix
