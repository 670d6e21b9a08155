#include "rbmix/analysis/exact_total_variation.hpp"

#include "rbmix/analysis/sweep_operator.hpp"
#include "rbmix/model/tempering.hpp"

namespace rbmix::analysis {

VectorD exact_total_variation(const Rbm& rbm, const UnitRule& rule, double inverse_temperature,
                              const StartDistribution& start, Eigen::Index sweeps, bool modified_sweep) {
  require(rbm.n_visible() + rbm.n_hidden() <= max_exact_distance_units, [&] {
    return "exact distance: the model has " + std::to_string(rbm.n_visible() + rbm.n_hidden()) +
           " units, more than the " + std::to_string(max_exact_distance_units) + " whose joint states rbmix enumerates";
  });
  validate_start_distribution(start, rbm);
  const SweepOperator sweep(rbm, rule, inverse_temperature);
  const VectorD stationary = JointStateSpace(rbm).stationary_distribution(tempered(rbm, inverse_temperature));
  const VectorD initial = exact_start_distribution(start, rbm, inverse_temperature);
  if (!modified_sweep) return exact_total_variation(sweep, initial, stationary, sweeps);
  return exact_total_variation(ModifiedOperator(sweep, sweep.diagonal().minCoeff()), initial, stationary, sweeps);
}

std::optional<Eigen::Index> first_time_within(const VectorD& distances, double epsilon) {
  for (Eigen::Index t = 0; t < distances.size(); ++t)
    if (distances[t] <= epsilon) return t;
  return std::nullopt;
}

}  // namespace rbmix::analysis
