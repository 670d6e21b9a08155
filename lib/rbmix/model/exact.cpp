#include "rbmix/model/exact.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <vector>

namespace rbmix {
namespace {

// The enumerated layer seen generically: row k of unit_weights holds the weights from enumerated unit k to every
// unit of the other layer. For the hidden layer that is W itself; for the visible layer it is Wᵀ.
struct EnumerationView {
  MatrixD unit_weights;
  VectorD enumerated_bias;
  VectorD other_bias;
  bool hidden_enumerated;
};

EnumerationView make_view(const Rbm& rbm, EnumeratedLayer layer) {
  if (layer == EnumeratedLayer::automatic) layer = smaller_layer(rbm);
  const bool hidden = layer == EnumeratedLayer::hidden;
  const auto units = hidden ? rbm.n_hidden() : rbm.n_visible();
  require(units <= max_enumerated_units, "exact enumeration: the " + std::string(hidden ? "hidden" : "visible") +
                                             " layer has " + std::to_string(units) + " units; at most " +
                                             std::to_string(max_enumerated_units) + " can be enumerated");
  if (hidden) return {rbm.weights, rbm.hidden_bias, rbm.visible_bias, true};
  return {rbm.weights.transpose(), rbm.visible_bias, rbm.hidden_bias, false};
}

// Running log-sum-exp: keeps the largest term and the sum of exp(term − largest).
struct LogSumExp {
  double max = -std::numeric_limits<double>::infinity();
  double scaled_sum = 0.0;
  void add(double term) {
    if (term <= max) {
      scaled_sum += std::exp(term - max);
    } else {
      scaled_sum = scaled_sum * std::exp(max - term) + 1.0;
      max = term;
    }
  }
  void merge(const LogSumExp& other) {
    if (other.scaled_sum == 0.0) return;
    if (other.max <= max) {
      scaled_sum += other.scaled_sum * std::exp(other.max - max);
    } else {
      scaled_sum = scaled_sum * std::exp(max - other.max) + other.scaled_sum;
      max = other.max;
    }
  }
  double value() const { return max + std::log(scaled_sum); }
};

// Σ_o softplus(a_o) = Σ_o max(a_o, 0) + log Π_o (1 + e^{−|a_o|}). Each factor lies in (1, 2], so a product over
// at most 512 of them cannot overflow; this needs one exp per unit and one log per 512 units.
double sum_softplus(const Eigen::ArrayXd& input, Eigen::ArrayXd& factors) {
  constexpr Eigen::Index chunk = 512;
  factors = (-input.abs()).exp() + 1.0;
  double total = input.max(0.0).sum();
  for (Eigen::Index start = 0; start < factors.size(); start += chunk) {
    total += std::log(factors.segment(start, std::min(chunk, factors.size() - start)).prod());
  }
  return total;
}

// Visits every state s of the enumerated layer with the other layer's total input a = other_bias + Uᵀs and the
// log of the unnormalised marginal, log_term = enumerated_biasᵀs + Σ softplus(a). States are cut into a fixed
// number of blocks, each walked in Gray-code order; visit(accumulator, s, a, log_term) fills the block's own
// accumulator. The accumulators come back in block order, independent of the thread count.
template <typename Accumulator, typename Visit>
std::vector<Accumulator> enumerate_blocks(const EnumerationView& view, const Accumulator& initial, Visit visit) {
  const auto units = static_cast<int>(view.unit_weights.rows());
  const std::uint64_t states = std::uint64_t{1} << units;
  constexpr std::uint64_t max_blocks = 1024;
  const std::uint64_t blocks = std::min(states, max_blocks);
  const std::uint64_t block_size = states / blocks;  // both are powers of two
  std::vector<Accumulator> accumulators(blocks, initial);
  // Below about a million unit evaluations the work is done before a thread team pays for itself, and on a busy
  // machine waiting for a team can cost far more than the work (seen: 40× slower on 2 loaded cores).
  constexpr std::uint64_t min_parallel_work = std::uint64_t{1} << 20;
  const bool parallel = states * static_cast<std::uint64_t>(view.other_bias.size()) >= min_parallel_work;

#pragma omp parallel if (parallel)
  {
    Eigen::ArrayXd input(view.other_bias.size());
    Eigen::ArrayXd factors(view.other_bias.size());
#pragma omp for schedule(dynamic)
    for (std::int64_t block = 0; block < static_cast<std::int64_t>(blocks); ++block) {
      const std::uint64_t begin = static_cast<std::uint64_t>(block) * block_size;
      std::uint64_t state = begin ^ (begin >> 1);
      input = view.other_bias.array();
      double bias_term = 0.0;
      for (int unit = 0; unit < units; ++unit) {
        if ((state >> unit) & 1U) {
          input += view.unit_weights.row(unit).transpose().array();
          bias_term += view.enumerated_bias[unit];
        }
      }
      Accumulator& accumulator = accumulators[static_cast<std::size_t>(block)];
      visit(accumulator, state, input, bias_term + sum_softplus(input, factors));
      for (std::uint64_t index = begin + 1; index < begin + block_size; ++index) {
        const int unit = std::countr_zero(index);
        state ^= std::uint64_t{1} << unit;
        if ((state >> unit) & 1U) {
          input += view.unit_weights.row(unit).transpose().array();
          bias_term += view.enumerated_bias[unit];
        } else {
          input -= view.unit_weights.row(unit).transpose().array();
          bias_term -= view.enumerated_bias[unit];
        }
        visit(accumulator, state, input, bias_term + sum_softplus(input, factors));
      }
    }
  }
  return accumulators;
}

double log_partition_of_view(const EnumerationView& view) {
  const auto blocks = enumerate_blocks(view, LogSumExp{},
                                       [](LogSumExp& sum, std::uint64_t, const Eigen::ArrayXd&, double log_term) {
                                         sum.add(log_term);
                                       });
  LogSumExp total;
  for (const auto& block : blocks) total.merge(block);
  return total.value();
}

}  // namespace

EnumeratedLayer smaller_layer(const Rbm& rbm) {
  return rbm.n_visible() < rbm.n_hidden() ? EnumeratedLayer::visible : EnumeratedLayer::hidden;
}

double exact_log_partition(const Rbm& rbm, EnumeratedLayer layer) {
  rbm.validate("exact log Z");
  return log_partition_of_view(make_view(rbm, layer));
}

VectorD exact_log_probability(const Rbm& rbm, const MatrixD& data, double log_partition) {
  require(data.cols() == rbm.n_visible(), "data has " + std::to_string(data.cols()) + " columns but the RBM has " +
                                              std::to_string(rbm.n_visible()) + " visible units");
  return (-rbm.free_energy(data).array() - log_partition).matrix();
}

double exact_average_log_likelihood(const Rbm& rbm, const MatrixD& data, double log_partition) {
  require(data.rows() > 0, "average log-likelihood of an empty data set");
  const VectorD log_probabilities = exact_log_probability(rbm, data, log_partition);
  const double mean = log_probabilities.mean();
  if (std::isfinite(mean) || !log_probabilities.allFinite()) return mean;
  // Every row's value is finite but their sum overflows (values near −1e308): the sum of the values each divided by
  // the count stays within the largest |value|. Only then, so that ordinary averages keep their bits.
  return (log_probabilities.array() / static_cast<double>(log_probabilities.size())).sum();
}

Statistics exact_model_statistics(const Rbm& rbm) {
  rbm.validate("exact model statistics");
  const EnumerationView view = make_view(rbm, EnumeratedLayer::automatic);
  const double log_partition = log_partition_of_view(view);
  const auto units = view.unit_weights.rows();
  const auto others = view.unit_weights.cols();

  // Per block: Σ p(s) s, Σ p(s) E[o|s], Σ p(s) s E[o|s]ᵀ, where o is the other layer.
  struct Moments {
    VectorD enumerated;
    VectorD other;
    MatrixD cross;  // units × others
  };
  const Moments zero{VectorD::Zero(units), VectorD::Zero(others), MatrixD::Zero(units, others)};
  const auto blocks = enumerate_blocks(
      view, zero, [&](Moments& moments, std::uint64_t state, const Eigen::ArrayXd& input, double log_term) {
        const double probability = std::exp(log_term - log_partition);
        const VectorD other_mean = probability * logistic_array(input).matrix();
        moments.other += other_mean;
        for (Eigen::Index unit = 0; unit < units; ++unit) {
          if ((state >> unit) & 1U) {
            moments.enumerated[unit] += probability;
            moments.cross.row(unit) += other_mean.transpose();
          }
        }
      });
  Moments total = zero;
  for (const auto& block : blocks) {
    total.enumerated += block.enumerated;
    total.other += block.other;
    total.cross += block.cross;
  }
  Statistics out;
  if (view.hidden_enumerated) {
    out.hidden = total.enumerated;
    out.visible = total.other;
    out.hidden_visible = total.cross;
  } else {
    out.visible = total.enumerated;
    out.hidden = total.other;
    out.hidden_visible = total.cross.transpose();
  }
  return out;
}

Statistics data_statistics(const Rbm& rbm, const MatrixD& data) {
  require(data.cols() == rbm.n_visible(), "data has " + std::to_string(data.cols()) + " columns but the RBM has " +
                                              std::to_string(rbm.n_visible()) + " visible units");
  require(data.rows() > 0, "data statistics of an empty data set");
  return batch_statistics(data, rbm.hidden_probabilities(data));
}

Rbm exact_log_likelihood_gradient(const Rbm& rbm, const MatrixD& data) {
  return statistics_difference(data_statistics(rbm, data), exact_model_statistics(rbm));
}

}  // namespace rbmix
