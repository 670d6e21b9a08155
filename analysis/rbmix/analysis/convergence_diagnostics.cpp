#include "rbmix/analysis/convergence_diagnostics.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "rbmix/analysis/autocorrelation.hpp"
#include "rbmix/core/error.hpp"

namespace rbmix::analysis {
namespace {

bool all_equal(const MatrixD& traces) { return (traces.array() == traces(0, 0)).all(); }

// The empirical q-quantile of every draw, linearly interpolated between order statistics (numpy's and R's
// default, type 7), as ArviZ's and posterior's tail ESS use.
double quantile(const MatrixD& traces, double probability) {
  std::vector<double> values(traces.data(), traces.data() + traces.size());
  const double position = probability * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  // The two order statistics without sorting every draw: the one at `below`, and the smallest of those after it.
  const auto lower = values.begin() + static_cast<std::ptrdiff_t>(below);
  std::nth_element(values.begin(), lower, values.end());
  const double low = *lower;
  const double high = above == below ? low : *std::min_element(lower + 1, values.end());
  return low + (position - static_cast<double>(below)) * (high - low);
}

// The checks of split_chains, for the routines that read the split chains in place.
void split_chains_shape(const MatrixD& traces) {
  validate_traces(traces, "split_chains");
  require(traces.rows() >= 4,
          "split_chains: each chain needs at least 4 steps to be split, got " + std::to_string(traces.rows()));
}

}  // namespace

MatrixD split_chains(const MatrixD& traces) {
  split_chains_shape(traces);
  const Eigen::Index half = traces.rows() / 2;
  MatrixD out(half, 2 * traces.cols());
  out.leftCols(traces.cols()) = traces.topRows(half);
  out.rightCols(traces.cols()) = traces.bottomRows(half);
  return out;
}

namespace {

// The draws of a trace, or of its split chains, sorted once; the rank-normalised scores of the draws and of their
// folded values |x − median| are both read from this one order, so a long trace is sorted once and no copy of it
// (split, folded) is made: at 10^8 draws the order is 400 MB beside the trace, the scores 800 MB (docs/
// performance.md). Index is the draw index type: 32 bits where they suffice halve the order.
template <typename Index>
class SortedDraws {
 public:
  // split: the draws of split_chains(traces), laid out as it lays them out (the middle draw of an odd chain left
  // out); otherwise every draw of `traces` in its place.
  SortedDraws(const MatrixD& traces, bool split)
      : traces_(traces),
        split_(split),
        half_(split ? traces.rows() / 2 : traces.rows()),
        rows_(half_),
        columns_(split ? 2 * traces.cols() : traces.cols()) {
    const Eigen::Index chains = traces.cols();
    const Eigen::Index middle_row = split && traces.rows() % 2 == 1 ? half_ : -1;
    order_.reserve(static_cast<std::size_t>(rows_ * columns_));
    for (Eigen::Index draw = 0; draw < traces.size(); ++draw)
      if (draw / chains != middle_row) order_.push_back(static_cast<Index>(draw));
    // Ties in storage order: the order a stable sort gives, sorted in place (a stable sort would add a buffer as
    // large as the order).
    const double* values = traces.data();
    std::sort(order_.begin(), order_.end(), [values](Index a, Index b) {
      return values[a] < values[b] || (values[a] == values[b] && a < b);
    });
  }

  // Every draw replaced by Φ^{-1}((r − 3/8)/(S + 1/4)), r its rank with ties averaged.
  MatrixD scores() const {
    MatrixD out(rows_, columns_);
    const std::size_t total = order_.size();
    for (std::size_t first = 0; first < total;) {
      std::size_t last = first;
      while (last + 1 < total && value(last + 1) == value(first)) ++last;
      const double score = score_of(first, last - first + 1);
      for (std::size_t k = first; k <= last; ++k) out.data()[position(order_[k])] = score;
      first = last + 1;
    }
    return out;
  }

  // The scores of the folded draws |x − median| (the median over the draws; the mean of the two middle ones for an
  // even count, as numpy's). Above the median the folded values rise with x, below it they rise as x falls: their
  // order is the merge of the two runs of the sorted draws, walked outwards from the median.
  MatrixD folded_scores() const {
    const std::size_t total = order_.size();
    const double median =
        total % 2 == 1 ? value(total / 2) : 0.5 * (value(total / 2 - 1) + value(total / 2));
    const auto folded = [&](std::size_t k) { return std::abs(value(k) - median); };
    MatrixD out(rows_, columns_);
    // [above, total): the draws at or above the median still to rank; [0, below): those under it.
    auto above = static_cast<std::size_t>(std::lower_bound(order_.begin(), order_.end(), median,
                                                           [this](Index draw, double level) {
                                                             return traces_.data()[draw] < level;
                                                           }) -
                                          order_.begin());
    std::size_t below = above;
    for (std::size_t ranked = 0; ranked < total;) {
      const double smallest = above == total ? folded(below - 1)
                              : below == 0   ? folded(above)
                                             : std::min(folded(above), folded(below - 1));
      std::size_t above_end = above, below_end = below;
      while (above_end < total && folded(above_end) == smallest) ++above_end;
      while (below_end > 0 && folded(below_end - 1) == smallest) --below_end;
      const std::size_t count = (above_end - above) + (below - below_end);
      const double score = score_of(ranked, count);
      for (std::size_t k = above; k < above_end; ++k) out.data()[position(order_[k])] = score;
      for (std::size_t k = below_end; k < below; ++k) out.data()[position(order_[k])] = score;
      ranked += count;
      above = above_end;
      below = below_end;
    }
    return out;
  }

 private:
  double value(std::size_t k) const { return traces_.data()[order_[k]]; }

  // The score of `count` tied draws at 0-based sorted positions first .. first + count − 1: the average rank
  // (1-based), Blom's offsets (Vehtari et al. eq. 14).
  double score_of(std::size_t first, std::size_t count) const {
    const double rank = static_cast<double>(first) + 0.5 * static_cast<double>(count - 1) + 1.0;
    return boost::math::quantile(standard_normal_, (rank - 0.375) / (static_cast<double>(order_.size()) + 0.25));
  }

  // Where the draw at `draw` of the trace goes in the output (row-major): split_chains puts step t < N/2 of chain
  // c at (t, c) and step t ≥ N − N/2 at (t − (N − N/2), chains + c).
  std::size_t position(Index draw) const {
    if (!split_) return static_cast<std::size_t>(draw);
    const Eigen::Index chains = traces_.cols();
    const Eigen::Index step = static_cast<Eigen::Index>(draw) / chains;
    const Eigen::Index chain = static_cast<Eigen::Index>(draw) % chains;
    const Eigen::Index row = step < half_ ? step : step - (traces_.rows() - half_);
    const Eigen::Index column = step < half_ ? chain : chains + chain;
    return static_cast<std::size_t>(row * columns_ + column);
  }

  const MatrixD& traces_;
  bool split_;
  Eigen::Index half_;
  Eigen::Index rows_;
  Eigen::Index columns_;
  std::vector<Index> order_;
  boost::math::normal standard_normal_;
};

// `use(sorted)` with the draws of `traces` (split or not) sorted by the narrowest index type that holds them.
template <typename Use>
auto with_sorted_draws(const MatrixD& traces, bool split, Use use) {
  if (traces.size() <= static_cast<Eigen::Index>(std::numeric_limits<std::uint32_t>::max()))
    return use(SortedDraws<std::uint32_t>(traces, split));
  return use(SortedDraws<std::uint64_t>(traces, split));
}

}  // namespace

MatrixD rank_normalise(const MatrixD& traces) {
  validate_traces(traces, "rank_normalise");
  return with_sorted_draws(traces, false, [](const auto& sorted) { return sorted.scores(); });
}

double potential_scale_reduction(const MatrixD& traces) {
  validate_traces(traces, "potential_scale_reduction");
  require(traces.cols() >= 2, "potential_scale_reduction: needs at least 2 chains");
  if (all_equal(traces)) return 1.0;
  const double steps = static_cast<double>(traces.rows());
  const VectorD means = traces.colwise().mean().transpose();
  const double within = (traces.rowwise() - means.transpose()).array().square().colwise().sum().mean() / (steps - 1.0);
  const double between_over_steps =
      (means.array() - means.mean()).square().sum() / static_cast<double>(means.size() - 1);
  if (!(within > 0.0)) return std::numeric_limits<double>::infinity();  // constant chains at different values
  return std::sqrt(((steps - 1.0) / steps * within + between_over_steps) / within);
}

std::vector<Eigen::Index> consecutive_superchains(Eigen::Index chains, Eigen::Index superchains) {
  require(superchains >= 2, "superchains: need at least 2, got " + std::to_string(superchains));
  require(chains % superchains == 0, "superchains: " + std::to_string(chains) + " chains do not divide into " +
                                         std::to_string(superchains) + " superchains of equal size");
  std::vector<Eigen::Index> superchain_of_chain(static_cast<std::size_t>(chains));
  const Eigen::Index size = chains / superchains;
  for (Eigen::Index chain = 0; chain < chains; ++chain)
    superchain_of_chain[static_cast<std::size_t>(chain)] = chain / size;
  return superchain_of_chain;
}

namespace {

// The superchains' sizes checked: labels 0 … K − 1, K ≥ 2, each with as many chains. Returns K.
Eigen::Index superchain_count(const MatrixD& traces, const std::vector<Eigen::Index>& superchain_of_chain) {
  require(static_cast<Eigen::Index>(superchain_of_chain.size()) == traces.cols(),
          "superchains: " + std::to_string(superchain_of_chain.size()) + " superchain labels for " +
              std::to_string(traces.cols()) + " chains");
  Eigen::Index superchains = 0;
  for (const Eigen::Index label : superchain_of_chain) {
    require(label >= 0, "superchains: a superchain label is negative (" + std::to_string(label) + ")");
    superchains = std::max(superchains, label + 1);
  }
  require(superchains >= 2, "superchains: need at least 2 superchains, got " + std::to_string(superchains));
  std::vector<Eigen::Index> sizes(static_cast<std::size_t>(superchains), 0);
  for (const Eigen::Index label : superchain_of_chain) ++sizes[static_cast<std::size_t>(label)];
  require(std::all_of(sizes.begin(), sizes.end(), [&](Eigen::Index size) { return size == sizes[0]; }),
          "superchains: every superchain 0 … " + std::to_string(superchains - 1) +
              " must hold the same number of chains");
  return superchains;
}

}  // namespace

double nested_potential_scale_reduction(const MatrixD& traces, const std::vector<Eigen::Index>& superchain_of_chain) {
  validate_traces(traces, "nested_potential_scale_reduction");
  const Eigen::Index superchains = superchain_count(traces, superchain_of_chain);
  if (all_equal(traces)) return 1.0;
  const Eigen::Index steps = traces.rows();
  const VectorD means = traces.colwise().mean().transpose();
  VectorD variances = VectorD::Zero(traces.cols());
  if (steps > 1)
    variances = (traces.rowwise() - means.transpose()).array().square().colwise().sum().transpose() /
                static_cast<double>(steps - 1);
  // Per superchain k: the mean of its chain means (eq. 4), the variance of its chain means B̂_k (ddof 1; 0 for one
  // chain each) and its mean within-chain variance Ŵ_k (eq. 7).
  const auto size = static_cast<double>(traces.cols() / superchains);
  VectorD superchain_means = VectorD::Zero(superchains), within = VectorD::Zero(superchains);
  for (Eigen::Index chain = 0; chain < traces.cols(); ++chain) {
    const Eigen::Index k = superchain_of_chain[static_cast<std::size_t>(chain)];
    superchain_means[k] += means[chain] / size;
    within[k] += variances[chain] / size;
  }
  VectorD between_chains = VectorD::Zero(superchains);
  if (size > 1.0)
    for (Eigen::Index chain = 0; chain < traces.cols(); ++chain) {
      const Eigen::Index k = superchain_of_chain[static_cast<std::size_t>(chain)];
      between_chains[k] += std::pow(means[chain] - superchain_means[k], 2) / (size - 1.0);
    }
  // eqs. 6 and 8: nR̂ = √(1 + B̂_ν/Ŵ_ν), B̂_ν the variance of the superchain means, Ŵ_ν = mean_k (B̂_k + Ŵ_k).
  const double between_superchains =
      (superchain_means.array() - superchain_means.mean()).square().sum() / static_cast<double>(superchains - 1);
  const double within_superchains = (between_chains + within).mean();
  if (!(within_superchains > 0.0)) return std::numeric_limits<double>::infinity();
  return std::sqrt(1.0 + between_superchains / within_superchains);
}

namespace {

// The larger of `reduction` on the rank-normalised split chains and on their rank-normalised folded values
// (Vehtari et al. §4.2); the folded ones are scored first so that the order is freed before the bulk scores'
// consumer runs. `bulk_use`, if given, sees the bulk scores too (the bulk ESS shares them).
template <typename Reduction, typename BulkUse>
double rank_normalised_split(const MatrixD& traces, Reduction reduction, BulkUse bulk_use) {
  MatrixD bulk;
  double folded = 0.0;
  with_sorted_draws(traces, true, [&](const auto& sorted) {
    folded = reduction(sorted.folded_scores());
    bulk = sorted.scores();
    return 0;
  });
  const double bulk_reduction = reduction(bulk);
  bulk_use(bulk);
  return std::max(bulk_reduction, folded);
}

// The tail ESS of `traces` (Vehtari et al. §4.3): the indicators of the 5 % and 95 % quantiles over every draw, on
// split chains, each laid out as split_chains lays them (no copy of the split chains themselves).
double split_tail_effective_sample_size(const MatrixD& traces) {
  const Eigen::Index half = traces.rows() / 2, chains = traces.cols();
  double smallest = std::numeric_limits<double>::infinity();
  for (const double probability : {0.05, 0.95}) {
    const double threshold = quantile(traces, probability);
    MatrixD indicators(half, 2 * chains);
    indicators.leftCols(chains) = (traces.topRows(half).array() <= threshold).cast<double>().matrix();
    indicators.rightCols(chains) = (traces.bottomRows(half).array() <= threshold).cast<double>().matrix();
    smallest = std::min(smallest, effective_sample_size(indicators).effective_sample_size);
  }
  return smallest;
}

}  // namespace

double rank_normalised_split_potential_scale_reduction(const MatrixD& traces) {
  split_chains_shape(traces);
  return rank_normalised_split(
      traces, [](const MatrixD& scores) { return potential_scale_reduction(scores); }, [](const MatrixD&) {});
}

double rank_normalised_split_nested_potential_scale_reduction(const MatrixD& traces,
                                                              const std::vector<Eigen::Index>& superchain_of_chain) {
  split_chains_shape(traces);
  superchain_count(traces, superchain_of_chain);
  // The two halves of a chain stay in its superchain (ArviZ's rhat_nested: the labels repeated for the halves).
  std::vector<Eigen::Index> superchain_of_half = superchain_of_chain;
  superchain_of_half.insert(superchain_of_half.end(), superchain_of_chain.begin(), superchain_of_chain.end());
  return rank_normalised_split(
      traces, [&](const MatrixD& scores) { return nested_potential_scale_reduction(scores, superchain_of_half); },
      [](const MatrixD&) {});
}

ConvergenceDiagnostics convergence_diagnostics(const MatrixD& traces) {
  split_chains_shape(traces);
  ConvergenceDiagnostics out;
  out.potential_scale_reduction = rank_normalised_split(
      traces, [](const MatrixD& scores) { return potential_scale_reduction(scores); },
      [&out](const MatrixD& bulk) { out.bulk = effective_sample_size(bulk); });
  out.tail_effective_sample_size = split_tail_effective_sample_size(traces);
  return out;
}

namespace {

// Geyer's initial positive sequence over pairs (ρ̂_t, ρ̂_{t+1}), t even, as Stan writes it, on the lags of
// `covariance`; false if it would read a lag beyond those computed before it stopped (the caller computes more).
bool sequence_from(const TraceAutocovariance& covariance, bool monotone, SequenceEstimate& out) {
  const Eigen::Index steps = covariance.steps;
  const double total = static_cast<double>(steps * covariance.chains);
  const VectorD& mean_covariance = covariance.mean_autocovariance;
  const double n = static_cast<double>(steps);
  const double mean_variance = mean_covariance[0] * n / (n - 1.0);
  double pooled = mean_variance * (n - 1.0) / n;
  if (covariance.chains > 1) {
    const VectorD& means = covariance.chain_means;
    pooled += (means.array() - means.mean()).square().sum() / static_cast<double>(means.size() - 1);
  }
  const auto correlation = [&](Eigen::Index lag) { return 1.0 - (mean_variance - mean_covariance[lag]) / pooled; };

  // Aligned as a VectorD is: Eigen's sum peels to the first aligned packet, so the order of its terms (and the last
  // bit of τ̂) would otherwise depend on where the allocator put the sequence.
  std::vector<double, Eigen::aligned_allocator<double>> rho{1.0, correlation(1)};
  Eigen::Index t = 0;
  double even = rho[0];
  double odd = rho[1];
  while (t < steps - 5 && even + odd > 0.0) {
    if (t + 3 > covariance.largest_lag()) return false;
    t += 2;
    even = correlation(t);
    odd = correlation(t + 1);
    rho.push_back(even + odd >= 0.0 ? even : 0.0);
    rho.push_back(even + odd >= 0.0 ? odd : 0.0);
  }
  out.terminated = !(even + odd > 0.0);
  const Eigen::Index last = t;
  if (even > 0.0) rho[static_cast<std::size_t>(last)] = even;
  // Geyer's initial monotone sequence: no pair larger than the one before.
  if (monotone)
    for (std::size_t k = 2; k + 2 <= static_cast<std::size_t>(last); k += 2)
      if (rho[k] + rho[k + 1] > rho[k - 2] + rho[k - 1]) {
        rho[k] = 0.5 * (rho[k - 2] + rho[k - 1]);
        rho[k + 1] = rho[k];
      }
  const double time =
      -1.0 + 2.0 * Eigen::Map<const VectorD>(rho.data(), last).sum() + rho[static_cast<std::size_t>(last)];
  out.monotone = monotone;
  out.time = std::max(time, 1.0 / std::log10(total));
  out.effective_sample_size = total / out.time;
  out.cutoff = last;
  return true;
}

}  // namespace

SequenceEstimates effective_sample_sizes(const MatrixD& traces, Eigen::Index initial_lag) {
  validate_traces(traces, "effective_sample_size");
  require(traces.rows() >= 4, "effective_sample_size: each chain needs at least 4 steps");
  SequenceEstimates out;
  out.positive.monotone = false;
  if (all_equal(traces)) {
    const double total = static_cast<double>(traces.size());
    for (SequenceEstimate* estimate : {&out.positive, &out.monotone}) {
      estimate->effective_sample_size = total;
      estimate->time = 1.0;
    }
    return out;
  }
  require(initial_lag >= 0, "effective_sample_size: the initial lag must not be negative");
  // The lags the sequences read: a few autocorrelation times for a chain long enough to trust.
  const Eigen::Index steps = traces.rows();
  for (Eigen::Index lag = initial_lag > 0 ? std::min(initial_lag, steps - 1) : first_largest_lag(steps);;
       lag = grown_lag(lag, steps)) {
    const TraceAutocovariance covariance = trace_autocovariance(traces, lag);
    if (sequence_from(covariance, false, out.positive) && sequence_from(covariance, true, out.monotone)) return out;
  }
}

SequenceEstimate effective_sample_size(const MatrixD& traces, bool monotone) {
  const SequenceEstimates both = effective_sample_sizes(traces);
  return monotone ? both.monotone : both.positive;
}

SequenceEstimate bulk_effective_sample_size(const MatrixD& traces) {
  split_chains_shape(traces);
  return effective_sample_size(
      with_sorted_draws(traces, true, [](const auto& sorted) { return sorted.scores(); }));
}

double tail_effective_sample_size(const MatrixD& traces) {
  split_chains_shape(traces);
  return split_tail_effective_sample_size(traces);
}

}  // namespace rbmix::analysis
