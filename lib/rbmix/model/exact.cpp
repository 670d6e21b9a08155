#include "rbmix/model/exact.hpp"

#include <algorithm>
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

// log Z without an exponential per unit and state. Split the enumerated state s into its low `low_units` bits and
// the rest: the other layer's input is a = A_high + A_low, so e^{±a} = e^{±A_high}·e^{±A_low}, and with
// e^{−|a|} = min(e^a, e^{−a}),
//   Σ_o softplus(a_o) = Σ_o max(a_o, 0) + log Π_o (1 + min(e^{A_high,o} e^{A_low,o}, e^{−A_high,o} e^{−A_low,o})).
// The low part's 2^low_units inputs and exponentials are tabled once; the high part's are formed once per high
// state (Gray-code order, one row per step, as enumerate_blocks) and serve its 2^low_units states, so a state costs
// two multiplies per unit instead of an exponential. The products e^{±A_high}e^{±A_low} must stay finite: that is
// guaranteed when |other bias| + Σ_k |U_k| ≤ max_factored_input for every unit of the other layer (e^700 < the
// largest double), and the caller falls back to enumerate_blocks otherwise. Each state's sum runs in a fixed order
// (lanes of `lanes` units, the lanes' products logged and summed in order), the high states are cut into a fixed
// number of blocks combined in block order: the result is the same whatever the thread count. It differs from
// enumerate_blocks' in rounding only (a is summed from two parts instead of updated along the whole block;
// e^{−|a|} is a product of two exponentials instead of one).
constexpr double max_factored_input = 700.0;
constexpr int low_units_limit = 5;

bool inputs_bounded_for_factoring(const EnumerationView& view) {
  const Eigen::ArrayXd bound =
      view.other_bias.array().abs() + view.unit_weights.cwiseAbs().colwise().sum().transpose().array();
  return bound.maxCoeff() <= max_factored_input;
}

using RowArray = Eigen::Array<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The low units' 2^low_units states, tabled once: row s holds state s's input A_low to the other layer, e^{A_low}
// and e^{−A_low}, padded to whole lanes with a = 0 and both exponentials 0, so that a padding unit adds
// max(0, 0) + log(1 + 0) = 0; `bias` the enumerated layer's bias term of each state.
struct LowUnitTables {
  RowArray input, exp_positive, exp_negative;
  std::vector<double> bias;
};

LowUnitTables low_unit_tables(const EnumerationView& view, int low_units, Eigen::Index padded) {
  const Eigen::Index others = view.other_bias.size();
  const Eigen::Index low_states = Eigen::Index{1} << low_units;
  LowUnitTables tables{RowArray::Zero(low_states, padded), RowArray::Zero(low_states, padded),
                       RowArray::Zero(low_states, padded), std::vector<double>(static_cast<std::size_t>(low_states))};
  for (Eigen::Index state = 0; state < low_states; ++state) {
    for (int unit = 0; unit < low_units; ++unit)
      if ((state >> unit) & 1) {
        tables.input.row(state).head(others) += view.unit_weights.row(unit).array();
        tables.bias[static_cast<std::size_t>(state)] += view.enumerated_bias[unit];
      }
    tables.exp_positive.row(state).head(others) = tables.input.row(state).head(others).exp();
    tables.exp_negative.row(state).head(others) = (-tables.input.row(state).head(others)).exp();
  }
  return tables;
}

// Eight lanes whatever the vector width (two packets of four with AVX2, one of eight with AVX-512): the same sums in
// the same order on every build.
constexpr Eigen::Index factored_lanes = 8;

// Eigen's packet types carry alignment attributes that a template argument drops; harmless here (GCC warns).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
// log_term + Σ_o softplus(a_o) for a = A_high + A_low of one high and one low state, from their inputs and
// exponentials (`padded` entries each): the positive parts and the factors 1 + e^{−|a|} gathered per lane, the
// lanes added in order and their products logged once (or per lane when `single_logarithm` is false).
double add_factored_softplus(double log_term, const double* high_input, const double* high_exp,
                             const double* high_exp_negative, const double* low_input, const double* low_exp,
                             const double* low_exp_negative, Eigen::Index padded, bool single_logarithm) {
  using namespace Eigen::internal;
  using Packet = packet_traits<double>::type;
  constexpr Eigen::Index packet = unpacket_traits<Packet>::size;
  constexpr Eigen::Index packets = factored_lanes / packet;
  static_assert(factored_lanes % packet == 0);
  const Packet zero = pset1<Packet>(0.0);
  const Packet one = pset1<Packet>(1.0);
  Packet positive[packets];
  Packet product[packets];
  for (Eigen::Index p = 0; p < packets; ++p) {
    positive[p] = pset1<Packet>(0.0);
    product[p] = pset1<Packet>(1.0);
  }
  // Each factor lies in [1, 2] and a lane multiplies at most padded / lanes of them: for up to 8 × 1023 units no
  // lane's product overflows.
  for (Eigen::Index o = 0; o < padded; o += factored_lanes)
    for (Eigen::Index p = 0; p < packets; ++p) {
      const Eigen::Index k = o + p * packet;
      const Packet a = padd(ploadu<Packet>(high_input + k), ploadu<Packet>(low_input + k));
      positive[p] = padd(positive[p], pmax(a, zero));
      const Packet decay = pmin(pmul(ploadu<Packet>(high_exp + k), ploadu<Packet>(low_exp + k)),
                                pmul(ploadu<Packet>(high_exp_negative + k), ploadu<Packet>(low_exp_negative + k)));
      product[p] = pmul(product[p], padd(one, decay));
    }
  alignas(64) double positive_lanes[factored_lanes];
  alignas(64) double product_lanes[factored_lanes];
  for (Eigen::Index p = 0; p < packets; ++p) {
    pstoreu(positive_lanes + p * packet, positive[p]);
    pstoreu(product_lanes + p * packet, product[p]);
  }
  // All lanes' factors together are at most 2^padded: below 2^1000 one logarithm serves the state.
  double whole_product = 1.0;
  for (Eigen::Index lane = 0; lane < factored_lanes; ++lane) {
    log_term += positive_lanes[lane];
    if (single_logarithm) {
      whole_product *= product_lanes[lane];
    } else {
      log_term += std::log(product_lanes[lane]);
    }
  }
  if (single_logarithm) log_term += std::log(whole_product);
  return log_term;
}
#pragma GCC diagnostic pop

double factored_log_partition(const EnumerationView& view) {
  const auto units = static_cast<int>(view.unit_weights.rows());
  const Eigen::Index others = view.other_bias.size();
  const Eigen::Index padded = (others + factored_lanes - 1) / factored_lanes * factored_lanes;
  const bool single_logarithm = padded <= 1000;
  const int low_units = std::min(units, low_units_limit);
  const int high_units = units - low_units;
  const Eigen::Index low_states = Eigen::Index{1} << low_units;
  const LowUnitTables low = low_unit_tables(view, low_units, padded);

  const std::uint64_t high_states = std::uint64_t{1} << high_units;
  constexpr std::uint64_t max_blocks = 1024;
  const std::uint64_t blocks = std::min(high_states, max_blocks);
  const std::uint64_t block_size = high_states / blocks;
  std::vector<LogSumExp> sums(blocks);
  constexpr std::uint64_t min_parallel_work = std::uint64_t{1} << 20;
  const bool parallel = (high_states << low_units) * static_cast<std::uint64_t>(others) >= min_parallel_work;
#pragma omp parallel if (parallel)
  {
    Eigen::ArrayXd high_input = Eigen::ArrayXd::Zero(padded);
    Eigen::ArrayXd high_exp = Eigen::ArrayXd::Zero(padded);
    Eigen::ArrayXd high_exp_negative = Eigen::ArrayXd::Zero(padded);
    // Every low state under the current high state.
    const auto visit_high_state = [&](double high_bias, LogSumExp& sum) {
      high_exp.head(others) = high_input.head(others).exp();
      high_exp_negative.head(others) = (-high_input.head(others)).exp();
      for (Eigen::Index state = 0; state < low_states; ++state)
        sum.add(add_factored_softplus(high_bias + low.bias[static_cast<std::size_t>(state)], high_input.data(),
                                      high_exp.data(), high_exp_negative.data(), low.input.row(state).data(),
                                      low.exp_positive.row(state).data(), low.exp_negative.row(state).data(), padded,
                                      single_logarithm));
    };
#pragma omp for schedule(dynamic)
    for (std::int64_t block = 0; block < static_cast<std::int64_t>(blocks); ++block) {
      const std::uint64_t begin = static_cast<std::uint64_t>(block) * block_size;
      std::uint64_t state = begin ^ (begin >> 1);
      high_input.head(others) = view.other_bias.array();
      double high_bias = 0.0;
      for (int unit = 0; unit < high_units; ++unit)
        if ((state >> unit) & 1U) {
          high_input.head(others) += view.unit_weights.row(low_units + unit).transpose().array();
          high_bias += view.enumerated_bias[low_units + unit];
        }
      LogSumExp& sum = sums[static_cast<std::size_t>(block)];
      visit_high_state(high_bias, sum);
      for (std::uint64_t index = begin + 1; index < begin + block_size; ++index) {
        const int unit = std::countr_zero(index);
        state ^= std::uint64_t{1} << unit;
        const double sign = ((state >> unit) & 1U) ? 1.0 : -1.0;
        high_input.head(others) += sign * view.unit_weights.row(low_units + unit).transpose().array();
        high_bias += sign * view.enumerated_bias[low_units + unit];
        visit_high_state(high_bias, sum);
      }
    }
  }
  LogSumExp total;
  for (const auto& block : sums) total.merge(block);
  return total.value();
}

double log_partition_of_view(const EnumerationView& view, PartitionEnumeration enumeration) {
  if (enumeration == PartitionEnumeration::factored_where_safe && inputs_bounded_for_factoring(view))
    return factored_log_partition(view);
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

double exact_log_partition(const Rbm& rbm, EnumeratedLayer layer, PartitionEnumeration enumeration) {
  rbm.validate("exact log Z");
  return log_partition_of_view(make_view(rbm, layer), enumeration);
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
  const double log_partition = log_partition_of_view(view, PartitionEnumeration::factored_where_safe);
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
