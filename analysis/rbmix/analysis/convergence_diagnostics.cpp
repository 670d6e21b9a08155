#include "rbmix/analysis/convergence_diagnostics.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <optional>
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

// Where the scores of a trace's draws go: every draw in its place, or the draws of split_chains(traces) laid out as
// it lays them out (the middle draw of an odd chain left out).
class ScoreLayout {
 public:
  ScoreLayout(const MatrixD& traces, bool split)
      : split_(split),
        steps_(traces.rows()),
        chains_(traces.cols()),
        half_(split ? traces.rows() / 2 : traces.rows()),
        columns_(split ? 2 * traces.cols() : traces.cols()) {}

  Eigen::Index rows() const { return half_; }
  Eigen::Index columns() const { return columns_; }
  std::size_t draws() const { return static_cast<std::size_t>(half_ * columns_); }
  // The row of the trace that split_chains leaves out; −1 for none.
  Eigen::Index dropped_row() const { return split_ && steps_ % 2 == 1 ? half_ : -1; }

  // Where the draw at `draw` of the trace (row-major) goes in the scores (row-major): split_chains puts step t < N/2
  // of chain c at (t, c) and step t ≥ N − N/2 at (t − (N − N/2), chains + c).
  std::size_t position(std::size_t draw) const {
    if (!split_) return draw;
    const auto step = static_cast<Eigen::Index>(draw) / chains_;
    const auto chain = static_cast<Eigen::Index>(draw) % chains_;
    const Eigen::Index row = step < half_ ? step : step - (steps_ - half_);
    const Eigen::Index column = step < half_ ? chain : chains_ + chain;
    return static_cast<std::size_t>(row * columns_ + column);
  }

 private:
  bool split_;
  Eigen::Index steps_;
  Eigen::Index chains_;
  Eigen::Index half_;
  Eigen::Index columns_;
};

// The rank-normalised scores Φ^{-1}((r − 3/8)/(S + 1/4)) of the draws of a layout, or of their folded values
// |x − median|, r the rank with ties averaged (Blom's offsets; Vehtari et al. eq. 14). The draws are sorted by their
// indices (`order`), each draw's doubled average rank 2r − 2 = first + last (0-based sorted positions of its ties) is
// written where its score goes (`doubled_ranks`, one Index per score), and the ranks are turned into scores last.
// Index holds draw indices and doubled ranks: 32 bits where they suffice.
template <typename Index>
class RankScoring {
 public:
  RankScoring(const MatrixD& traces, const ScoreLayout& layout) : traces_(traces), layout_(layout) {}

  // Fills `order` (layout.draws() entries) with the draws sorted by value, ties in storage order (the order a
  // stable sort gives, sorted in place: a stable sort would add a buffer as large as the order).
  void sort(Index* order) const {
    const Eigen::Index chains = traces_.cols();
    const Eigen::Index dropped_row = layout_.dropped_row();
    Index* next = order;
    for (Eigen::Index draw = 0; draw < traces_.size(); ++draw)
      if (draw / chains != dropped_row) *next++ = static_cast<Index>(draw);
    const double* values = traces_.data();
    std::sort(order, order + layout_.draws(),
              [values](Index a, Index b) { return values[a] < values[b] || (values[a] == values[b] && a < b); });
  }

  // Writes each draw's doubled rank at its position in `doubled_ranks`.
  void rank(const Index* order, unsigned char* doubled_ranks) const {
    const std::size_t total = layout_.draws();
    for (std::size_t first = 0; first < total;) {
      std::size_t last = first;
      while (last + 1 < total && value(order, last + 1) == value(order, first)) ++last;
      for (std::size_t k = first; k <= last; ++k) store(doubled_ranks, order[k], first + last);
      first = last + 1;
    }
  }

  // The same for the folded draws |x − median| (the median over the draws; the mean of the two middle ones for an
  // even count, as numpy's). Above the median the folded values rise with x, below it they rise as x falls: their
  // order is the merge of the two runs of the sorted draws, walked outwards from the median.
  void rank_folded(const Index* order, unsigned char* doubled_ranks) const {
    const std::size_t total = layout_.draws();
    const double median =
        total % 2 == 1 ? value(order, total / 2) : 0.5 * (value(order, total / 2 - 1) + value(order, total / 2));
    const auto folded = [&](std::size_t k) { return std::abs(value(order, k) - median); };
    // [above, total): the draws at or above the median still to rank; [0, below): those under it.
    const double* values = traces_.data();
    auto above =
        static_cast<std::size_t>(std::lower_bound(order, order + total, median,
                                                  [values](Index draw, double level) { return values[draw] < level; }) -
                                 order);
    std::size_t below = above;
    for (std::size_t ranked = 0; ranked < total;) {
      const double smallest = above == total ? folded(below - 1)
                              : below == 0   ? folded(above)
                                             : std::min(folded(above), folded(below - 1));
      std::size_t above_end = above, below_end = below;
      while (above_end < total && folded(above_end) == smallest) ++above_end;
      while (below_end > 0 && folded(below_end - 1) == smallest) --below_end;
      const std::size_t count = (above_end - above) + (below - below_end);
      const std::size_t doubled = 2 * ranked + count - 1;
      for (std::size_t k = above; k < above_end; ++k) store(doubled_ranks, order[k], doubled);
      for (std::size_t k = below_end; k < below; ++k) store(doubled_ranks, order[k], doubled);
      ranked += count;
      above = above_end;
      below = below_end;
    }
  }

  // scores[i] from doubled_ranks[i], in increasing i: the score i overwrites the bytes of doubled ranks at most i,
  // already read, where the ranks lie in the upper half of the scores' own bytes (rank_scores).
  void score(const unsigned char* doubled_ranks, double* scores) const {
    const boost::math::normal standard_normal;
    const double total = static_cast<double>(layout_.draws());
    Index last_rank = 0;
    double last_score = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = 0; i < layout_.draws(); ++i) {
      Index doubled;
      std::memcpy(&doubled, doubled_ranks + i * sizeof(Index), sizeof(Index));
      if (doubled != last_rank || std::isnan(last_score)) {
        // The average rank (1-based) of ties at sorted positions first..last is (first + last)/2 + 1.
        const double rank = 0.5 * static_cast<double>(doubled) + 1.0;
        last_score = boost::math::quantile(standard_normal, (rank - 0.375) / (total + 0.25));
        last_rank = doubled;
      }
      std::memcpy(scores + i, &last_score, sizeof(double));
    }
  }

 private:
  double value(const Index* order, std::size_t k) const { return traces_.data()[order[k]]; }

  // Ranks are stored byte-wise: in rank_scores they share the scores' memory with the order and the scores.
  void store(unsigned char* doubled_ranks, Index draw, std::size_t doubled) const {
    const auto rank = static_cast<Index>(doubled);
    std::memcpy(doubled_ranks + layout_.position(draw) * sizeof(Index), &rank, sizeof(Index));
  }

  const MatrixD& traces_;
  const ScoreLayout& layout_;
};

// The rank-normalised scores of the draws of `traces` (split: of split_chains(traces), laid out as it lays them
// out), or of their folded values. Up to 2^31 draws the order (32-bit draw indices) and the doubled ranks (32-bit)
// fill the lower and upper half of the scores' own memory until the scores overwrite them, so the memory beside the
// trace is one matrix of scores: at 10^8 draws 800 MB, where an order, ranks and scores apart were 1.6 GB
// (docs/performance.md). Beyond, they are 64-bit and held apart.
MatrixD rank_scores(const MatrixD& traces, bool split, bool folded) {
  const ScoreLayout layout(traces, split);
  MatrixD scores(layout.rows(), layout.columns());
  auto* bytes = reinterpret_cast<unsigned char*>(scores.data());
  const std::size_t total = layout.draws();
  const auto rank = [&](const auto& scoring, auto* order, unsigned char* doubled_ranks) {
    scoring.sort(order);
    if (folded)
      scoring.rank_folded(order, doubled_ranks);
    else
      scoring.rank(order, doubled_ranks);
    scoring.score(doubled_ranks, scores.data());
  };
  if (2 * total - 1 <= std::numeric_limits<std::uint32_t>::max()) {
    std::uninitialized_default_construct_n(reinterpret_cast<std::uint32_t*>(bytes), total);
    rank(RankScoring<std::uint32_t>(traces, layout), std::launder(reinterpret_cast<std::uint32_t*>(bytes)),
         bytes + total * sizeof(std::uint32_t));
  } else {
    std::vector<std::uint64_t> order(total), doubled_ranks(total);
    rank(RankScoring<std::uint64_t>(traces, layout), order.data(),
         reinterpret_cast<unsigned char*>(doubled_ranks.data()));
  }
  return scores;
}

}  // namespace

MatrixD rank_normalise(const MatrixD& traces) {
  validate_traces(traces, "rank_normalise");
  return rank_scores(traces, false, false);
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
// (Vehtari et al. §4.2). The two are ranked one after the other, each freed before the next is made, so that beside
// the trace there is only ever one matrix of scores. `bulk_use`, if given, sees the bulk scores too (the bulk ESS
// shares them).
template <typename Reduction, typename BulkUse>
double rank_normalised_split(const MatrixD& traces, Reduction reduction, BulkUse bulk_use) {
  const double folded = reduction(rank_scores(traces, true, true));
  const MatrixD bulk = rank_scores(traces, true, false);
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

std::optional<SequenceEstimates> sequence_estimates(const TraceAutocovariance& split_covariance) {
  SequenceEstimates out;
  out.positive.monotone = false;
  if (!sequence_from(split_covariance, false, out.positive) || !sequence_from(split_covariance, true, out.monotone))
    return std::nullopt;
  return out;
}

SequenceEstimate effective_sample_size(const MatrixD& traces, bool monotone) {
  const SequenceEstimates both = effective_sample_sizes(traces);
  return monotone ? both.monotone : both.positive;
}

SequenceEstimate bulk_effective_sample_size(const MatrixD& traces) {
  split_chains_shape(traces);
  return effective_sample_size(rank_scores(traces, true, false));
}

double tail_effective_sample_size(const MatrixD& traces) {
  split_chains_shape(traces);
  return split_tail_effective_sample_size(traces);
}

}  // namespace rbmix::analysis
