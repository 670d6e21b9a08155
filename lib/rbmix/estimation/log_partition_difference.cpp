#include "rbmix/estimation/log_partition_difference.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "rbmix/core/entry_checks.hpp"
#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

// Bisection halves the bracket until it is this narrow (nats): far below any standard error of a sampled Δ.
constexpr double root_tolerance = 1e-12;

void require_samples(const Rbm& rbm, const MatrixD& samples, const std::string& what) {
  require(samples.rows() >= 2, what + ": at least 2 samples are needed (for the standard error), got " +
                                   std::to_string(samples.rows()));
  require(samples.cols() == rbm.n_visible(), what + ": " + std::to_string(samples.cols()) +
                                                 " columns, but the models have " + std::to_string(rbm.n_visible()) +
                                                 " visible units");
  require(all_binary(samples), what + ": every value must be 0 or 1");
}

void require_same_shape(const Rbm& first, const Rbm& second) {
  first.validate("first model");
  second.validate("second model");
  require(first.n_visible() == second.n_visible() && first.n_hidden() == second.n_hidden(),
          "the two models differ in shape: " + std::to_string(first.n_visible()) + " x " +
              std::to_string(first.n_hidden()) + " and " + std::to_string(second.n_visible()) + " x " +
              std::to_string(second.n_hidden()));
}

// u(v) = F_0(v) − F_1(v) per row.
Eigen::ArrayXd log_ratio(const Rbm& first, const Rbm& second, const MatrixD& samples) {
  return (first.free_energy(samples) - second.free_energy(samples)).array();
}

// ⟨f²⟩/⟨f⟩² − 1 over one side's summands, divided by their count: that side's share of Bennett's variance.
double relative_variance_share(const Eigen::ArrayXd& summands) {
  const double mean = summands.mean();
  return (summands.square().mean() / (mean * mean) - 1.0) / static_cast<double>(summands.size());
}

Eigen::ArrayXd logistic_of(const Eigen::ArrayXd& x) { return 1.0 / (1.0 + (-x).exp()); }

}  // namespace

LogPartitionDifference free_energy_perturbation(const Rbm& from, const Rbm& to, const MatrixD& samples_of_from) {
  require_same_shape(from, to);
  require_samples(from, samples_of_from, "free-energy perturbation: samples of the first model");
  const Eigen::ArrayXd u = log_ratio(from, to, samples_of_from);
  const double largest = u.maxCoeff();
  const Eigen::ArrayXd ratios = (u - largest).exp();
  const auto count = static_cast<double>(ratios.size());
  const double mean = ratios.mean();
  const double deviation = std::sqrt((ratios - mean).square().sum() / (count - 1.0));
  return {largest + std::log(mean), deviation / (mean * std::sqrt(count))};
}

LogPartitionDifference bennett_acceptance_ratio(const Rbm& first, const Rbm& second, const MatrixD& samples_of_first,
                                                const MatrixD& samples_of_second) {
  require_same_shape(first, second);
  require_samples(first, samples_of_first, "Bennett's acceptance ratio: samples of the first model");
  require_samples(first, samples_of_second, "Bennett's acceptance ratio: samples of the second model");
  const Eigen::ArrayXd u_first = log_ratio(first, second, samples_of_first);
  const Eigen::ArrayXd u_second = log_ratio(first, second, samples_of_second);
  const double shift = std::log(static_cast<double>(u_first.size()) / static_cast<double>(u_second.size()));
  const auto balance = [&](double difference) {
    return logistic_of(u_first - difference - shift).sum() - logistic_of(difference - u_second + shift).sum();
  };
  // balance falls from n_0 to −n_1 as Δ rises; 40 nats beyond every u each logistic is within e^{-40} of 0 or 1.
  const double margin = 40.0 + std::abs(shift);
  double low = std::min(u_first.minCoeff(), u_second.minCoeff()) - margin;
  double high = std::max(u_first.maxCoeff(), u_second.maxCoeff()) + margin;
  while (high - low > root_tolerance * std::max(1.0, std::abs(low) + std::abs(high))) {
    const double middle = 0.5 * (low + high);
    if (middle == low || middle == high) break;
    (balance(middle) > 0.0 ? low : high) = middle;
  }
  const double root = 0.5 * (low + high);
  const double variance = relative_variance_share(logistic_of(u_first - root - shift)) +
                          relative_variance_share(logistic_of(root - u_second + shift));
  return {root, std::sqrt(std::max(variance, 0.0))};
}

DistinctRows distinct_rows(const MatrixD& rows) {
  // Rows compared as their bit patterns: the distinct ones, each counted once, in the order they first occur.
  std::map<std::vector<bool>, Eigen::Index> index_of;
  std::vector<Eigen::Index> first_row;
  std::vector<double> counts;
  for (Eigen::Index row = 0; row < rows.rows(); ++row) {
    std::vector<bool> pattern(static_cast<std::size_t>(rows.cols()));
    for (Eigen::Index unit = 0; unit < rows.cols(); ++unit) pattern[static_cast<std::size_t>(unit)] = rows(row, unit) > 0.5;
    const auto [place, inserted] = index_of.try_emplace(std::move(pattern), static_cast<Eigen::Index>(first_row.size()));
    if (inserted) {
      first_row.push_back(row);
      counts.push_back(0.0);
    }
    counts[static_cast<std::size_t>(place->second)] += 1.0;
  }
  DistinctRows distinct{MatrixD(static_cast<Eigen::Index>(first_row.size()), rows.cols()),
                        VectorD(static_cast<Eigen::Index>(first_row.size()))};
  for (std::size_t k = 0; k < first_row.size(); ++k) {
    distinct.rows.row(static_cast<Eigen::Index>(k)) = rows.row(first_row[k]);
    distinct.counts[static_cast<Eigen::Index>(k)] = counts[k];
  }
  return distinct;
}

FreeEnergySummary mean_free_energy_and_bound(const Rbm& rbm, const DistinctRows& distinct) {
  const VectorD free_energies = rbm.free_energy(distinct.rows);
  const Eigen::ArrayXd log_unnormalised = -free_energies.array();
  const double largest = log_unnormalised.maxCoeff();
  return {free_energies.dot(distinct.counts) / distinct.counts.sum(),
          largest + std::log((log_unnormalised - largest).exp().sum())};
}

double distinct_rows_log_partition_bound(const Rbm& rbm, const MatrixD& rows) {
  rbm.validate("model");
  require_samples(rbm, rows, "rows");
  return mean_free_energy_and_bound(rbm, distinct_rows(rows)).distinct_rows_bound;
}

void refuse_log_partition_below_rows(double log_partition, const Rbm& rbm, const MatrixD& rows,
                                     const std::string& what) {
  const double bound = distinct_rows_log_partition_bound(rbm, rows);
  require(log_partition >= bound, [&] {
    return what + ": the estimate log Z = " + std::to_string(log_partition) +
           " lies below log sum over the distinct rows of e^{-F(v)} = " + std::to_string(bound) +
           ": it would give those rows a total probability of " + std::to_string(std::exp(bound - log_partition)) +
           " > 1 (sampling missed mass the estimate claims is absent)";
  });
}

}  // namespace rbmix
