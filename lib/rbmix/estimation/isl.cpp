#include "rbmix/estimation/isl.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

constexpr int kGridPoints = 64;
constexpr double kSmallestLogOdds = 1e-4;
constexpr double kLargestLogOdds = 30.0;
// A chosen t within this fraction of the grid's relative step of an end is on that end: far coarser than the
// golden section's resolution (10⁻¹² of a step), far finer than the grid, and above t's rounding from β near 1.
constexpr double kBoundFraction = 0.01;
// Golden-section steps: the bracket shrinks by 0.618 per step, 60 steps take it below 10⁻¹² of its width.
constexpr int kGoldenSectionSteps = 60;

double beta_of_log_odds(double log_odds) { return 1.0 / (1.0 + std::exp(-log_odds)); }

// The grid's points are t_k = t_min · ρ^k, ρ = (t_max / t_min)^{1/(points − 1)}, so that t_0 = t_min and
// t_{points−1} = t_max: the search range's ends are grid points.
double grid_log_ratio() { return std::log(kLargestLogOdds / kSmallestLogOdds) / (kGridPoints - 1); }

// e^{k·ℓ} for k = 0 … m, ℓ = log((1−β)/β) < 0: the kernel's decay per unit of distance beyond the nearest.
std::vector<double> kernel_powers(Eigen::Index units, double beta) {
  const double log_ratio = std::log1p(-beta) - std::log(beta);
  std::vector<double> powers(static_cast<std::size_t>(units + 1));
  for (Eigen::Index k = 0; k <= units; ++k)
    powers[static_cast<std::size_t>(k)] = std::exp(static_cast<double>(k) * log_ratio);
  return powers;
}

double log_density_with_powers(const std::uint32_t* counts, Eigen::Index units, Eigen::Index samples, double beta,
                               const std::vector<double>& powers) {
  Eigen::Index nearest = 0;
  while (nearest <= units && counts[nearest] == 0) ++nearest;
  Eigen::Index farthest = units;
  while (farthest > nearest && counts[farthest] == 0) --farthest;
  double sum = 0.0;  // Σ_d c_d e^{(d − nearest)ℓ}, its largest term c_nearest ≥ 1
  for (Eigen::Index d = nearest; d <= farthest; ++d)
    sum += static_cast<double>(counts[d]) * powers[static_cast<std::size_t>(d - nearest)];
  const double log_ratio = std::log1p(-beta) - std::log(beta);
  return static_cast<double>(units) * std::log(beta) + static_cast<double>(nearest) * log_ratio + std::log(sum) -
         std::log(static_cast<double>(samples));
}

void require_beta(double beta) {
  require(beta > 0.5 && beta < 1.0, "ISL: the Parzen parameter β must lie in (½, 1), got " + std::to_string(beta));
}

}  // namespace

double log_parzen_density(const std::uint32_t* counts, Eigen::Index units, Eigen::Index samples, double beta) {
  require_beta(beta);
  require(samples >= 1, "ISL: the Parzen estimator needs at least one sample");
  return log_density_with_powers(counts, units, samples, beta, kernel_powers(units, beta));
}

double mean_log_parzen_density(const DistanceHistograms& histograms, double beta) {
  require_beta(beta);
  require(histograms.references() >= 1, "ISL: the Parzen estimator needs at least one sample");
  require(histograms.queries() >= 1, "ISL: no rows to evaluate");
  const std::vector<double> powers = kernel_powers(histograms.units(), beta);
  // Rows in parallel, summed afterwards in row order: the same number whatever the thread count.
  VectorD per_row(histograms.queries());
#pragma omp parallel for schedule(static)
  for (Eigen::Index query = 0; query < histograms.queries(); ++query)
    per_row[query] =
        log_density_with_powers(histograms.counts(query), histograms.units(), histograms.references(), beta, powers);
  double total = 0.0;
  for (Eigen::Index query = 0; query < per_row.size(); ++query) total += per_row[query];
  return total / static_cast<double>(histograms.queries());
}

BandwidthChoice choose_bandwidth(const DistanceHistograms& validation) {
  const auto objective = [&](double log_odds) {
    return mean_log_parzen_density(validation, beta_of_log_odds(log_odds));
  };
  std::vector<double> grid(kGridPoints);
  const double ratio = grid_log_ratio();
  for (int k = 0; k < kGridPoints; ++k) grid[static_cast<std::size_t>(k)] = kSmallestLogOdds * std::exp(ratio * k);
  int best = 0;
  double best_value = objective(grid[0]);
  for (int k = 1; k < kGridPoints; ++k) {
    const double value = objective(grid[static_cast<std::size_t>(k)]);
    if (value > best_value) {
      best = k;
      best_value = value;
    }
  }
  double low = grid[static_cast<std::size_t>(std::max(best - 1, 0))];
  double high = grid[static_cast<std::size_t>(std::min(best + 1, kGridPoints - 1))];
  const double golden = (std::sqrt(5.0) - 1.0) / 2.0;
  double left = high - golden * (high - low), right = low + golden * (high - low);
  double left_value = objective(left), right_value = objective(right);
  for (int step = 0; step < kGoldenSectionSteps; ++step) {
    if (left_value >= right_value) {
      high = right;
      right = left;
      right_value = left_value;
      left = high - golden * (high - low);
      left_value = objective(left);
    } else {
      low = left;
      left = right;
      left_value = right_value;
      right = low + golden * (high - low);
      right_value = objective(right);
    }
  }
  // The grid point stays the answer unless the refinement improved on it.
  const double refined = left_value >= right_value ? left : right;
  const double refined_value = std::max(left_value, right_value);
  if (refined_value > best_value) return {beta_of_log_odds(refined), refined_value};
  return {beta_of_log_odds(grid[static_cast<std::size_t>(best)]), best_value};
}

BandwidthBound bandwidth_bound(double beta) {
  const double log_odds = std::log(beta) - std::log1p(-beta);
  const double step = std::expm1(grid_log_ratio());  // the grid's relative step
  if (log_odds <= kSmallestLogOdds * (1.0 + kBoundFraction * step)) return BandwidthBound::lower;
  if (log_odds >= kLargestLogOdds * (1.0 - kBoundFraction * step)) return BandwidthBound::upper;
  return BandwidthBound::none;
}

std::string to_string(BandwidthBound bound) {
  switch (bound) {
    case BandwidthBound::lower:
      return "lower";
    case BandwidthBound::upper:
      return "upper";
    case BandwidthBound::none:
      break;
  }
  return "none";
}

std::vector<Eigen::Index> log_spaced_counts(Eigen::Index total) {
  require(total >= 1, "ISL: the sample set is empty");
  std::vector<Eigen::Index> counts;
  for (Eigen::Index decade = 1; decade <= total; decade *= 10)
    for (const Eigen::Index step : {1, 2, 5})
      if (decade * step < total) counts.push_back(decade * step);
  counts.push_back(total);
  return counts;
}

void validate_isl_inputs(const BinaryMatrix& samples, const BinaryMatrix& validation, const BinaryMatrix& test,
                         const std::vector<Eigen::Index>& counts, const IslInputNames& names) {
  require(samples.rows() >= 1, names.samples + ": holds no rows");
  require(validation.rows() >= 1, names.validation + ": holds no rows");
  require(test.rows() >= 1, names.test + ": holds no rows");
  const auto require_width = [&](const BinaryMatrix& rows, const std::string& name) {
    require(rows.cols() == samples.cols(), name + ": rows have " + std::to_string(rows.cols()) +
                                               " values but the samples have " + std::to_string(samples.cols()));
  };
  require_width(validation, names.validation);
  require_width(test, names.test);
  require(!counts.empty(), names.counts + ": no sample counts N to evaluate");
  for (std::size_t k = 0; k < counts.size(); ++k) {
    require(counts[k] >= 1 && counts[k] <= samples.rows(),
            names.counts + ": " + std::to_string(counts[k]) + " is outside 1 … " + std::to_string(samples.rows()) +
                " (the rows of " + names.samples + ")");
    require(k == 0 || counts[k] > counts[k - 1], names.counts + ": the counts must increase");
  }
}

std::vector<IslPoint> isl_curve(const BinaryMatrix& samples, const BinaryMatrix& validation, const BinaryMatrix& test,
                                const std::vector<Eigen::Index>& counts, const IslInputNames& names) {
  validate_isl_inputs(samples, validation, test, counts, names);
  const PackedBinaryRows packed_samples(samples, "ISL samples");
  DistanceHistograms validation_histograms(PackedBinaryRows(validation, "ISL validation set"));
  DistanceHistograms test_histograms(PackedBinaryRows(test, "ISL test set"));
  std::vector<IslPoint> curve;
  Eigen::Index added = 0;
  for (const Eigen::Index count : counts) {
    validation_histograms.add(packed_samples, added, count);
    test_histograms.add(packed_samples, added, count);
    added = count;
    const BandwidthChoice choice = choose_bandwidth(validation_histograms);
    curve.push_back(
        {count, choice.beta, choice.mean_log_density, mean_log_parzen_density(test_histograms, choice.beta)});
  }
  return curve;
}

}  // namespace rbmix
