#include "rbmix/analysis/convergence_diagnostics.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
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

MatrixD indicator_at_most(const MatrixD& traces, double threshold) {
  return (traces.array() <= threshold).cast<double>().matrix();
}

}  // namespace

MatrixD split_chains(const MatrixD& traces) {
  validate_traces(traces, "split_chains");
  require(traces.rows() >= 4,
          "split_chains: each chain needs at least 4 steps to be split, got " + std::to_string(traces.rows()));
  const Eigen::Index half = traces.rows() / 2;
  MatrixD out(half, 2 * traces.cols());
  out.leftCols(traces.cols()) = traces.topRows(half);
  out.rightCols(traces.cols()) = traces.bottomRows(half);
  return out;
}

namespace {

// rank_normalise with draw indices of type Index: 32-bit ones where they suffice halve the sort's index and buffer
// (a trace of 10^8 draws: 800 MB less). The order, ties included, is the same.
template <typename Index>
MatrixD rank_normalise_with(const MatrixD& traces) {
  const auto total = static_cast<std::size_t>(traces.size());
  std::vector<Index> order(total);
  std::iota(order.begin(), order.end(), Index{0});
  const double* values = traces.data();
  std::stable_sort(order.begin(), order.end(), [values](Index a, Index b) { return values[a] < values[b]; });
  MatrixD out(traces.rows(), traces.cols());
  const boost::math::normal standard_normal;
  const double count = static_cast<double>(total);
  for (std::size_t first = 0; first < order.size();) {
    std::size_t last = first;
    while (last + 1 < order.size() && values[order[last + 1]] == values[order[first]]) ++last;
    // Ranks are 1-based; tied draws share the average of their ranks.
    const double rank = 0.5 * static_cast<double>(first + last) + 1.0;
    const double score = boost::math::quantile(standard_normal, (rank - 0.375) / (count + 0.25));
    for (std::size_t k = first; k <= last; ++k) out.data()[order[k]] = score;
    first = last + 1;
  }
  return out;
}

}  // namespace

MatrixD rank_normalise(const MatrixD& traces) {
  validate_traces(traces, "rank_normalise");
  if (traces.size() <= std::numeric_limits<std::uint32_t>::max()) return rank_normalise_with<std::uint32_t>(traces);
  return rank_normalise_with<std::uint64_t>(traces);
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

namespace {

// R̂ of the rank-normalised folded split chains |x − median|, the median over every draw of `traces`.
double folded_potential_scale_reduction(const MatrixD& traces, const MatrixD& split) {
  std::vector<double> values(traces.data(), traces.data() + traces.size());
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  double median = *middle;
  if (values.size() % 2 == 0) median = 0.5 * (median + *std::max_element(values.begin(), middle));
  values = {};  // freed before the ranks' copies
  return potential_scale_reduction(rank_normalise(MatrixD((split.array() - median).abs().matrix())));
}

// The tail ESS of `traces` whose split chains are `split`.
double tail_effective_sample_size(const MatrixD& traces, const MatrixD& split) {
  return std::min(effective_sample_size(indicator_at_most(split, quantile(traces, 0.05))).effective_sample_size,
                  effective_sample_size(indicator_at_most(split, quantile(traces, 0.95))).effective_sample_size);
}

}  // namespace

double rank_normalised_split_potential_scale_reduction(const MatrixD& traces) {
  const MatrixD split = split_chains(traces);
  return std::max(potential_scale_reduction(rank_normalise(split)), folded_potential_scale_reduction(traces, split));
}

ConvergenceDiagnostics convergence_diagnostics(const MatrixD& traces) {
  const MatrixD split = split_chains(traces);
  ConvergenceDiagnostics out;
  double bulk_reduction = 0.0;
  {  // the ranked split chains are freed before the folded ones are ranked
    const MatrixD ranked = rank_normalise(split);
    out.bulk = effective_sample_size(ranked);
    bulk_reduction = potential_scale_reduction(ranked);
  }
  out.potential_scale_reduction = std::max(bulk_reduction, folded_potential_scale_reduction(traces, split));
  out.tail_effective_sample_size = tail_effective_sample_size(traces, split);
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
  return effective_sample_size(rank_normalise(split_chains(traces)));
}

double tail_effective_sample_size(const MatrixD& traces) {
  return tail_effective_sample_size(traces, split_chains(traces));
}

}  // namespace rbmix::analysis
