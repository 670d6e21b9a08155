#include "rbmix/training/saved_model_bridges.hpp"

#include <cmath>
#include <string>

#include "rbmix/core/entry_checks.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/sampling/batched_chains.hpp"
#include "rbmix/training/training_monitor.hpp"
#include "rbmix/training/trajectory_log_partition.hpp"

namespace rbmix {
namespace {

void check_trajectory_and_rows(const Trajectory& trajectory, const MatrixD& training_rows) {
  require(!trajectory.models.empty(), "the trajectory holds no model yet");
  require(training_rows.rows() >= 2 && training_rows.cols() == trajectory.n_visible && all_binary(training_rows),
          "training rows: expected at least 2 rows of " + std::to_string(trajectory.n_visible) +
              " values 0 or 1 (the trajectory's visible units), got " + std::to_string(training_rows.rows()) +
              " rows of " + std::to_string(training_rows.cols()));
}

// `options.samples` visible states of `model`, one per Gibbs chain after `options.sweeps` sweeps from the training
// rows, the chains on streams first_stream … first_stream + samples − 1 of the seed.
MatrixD chain_samples(const Rbm& model, const MatrixD& training_rows, const SavedModelBridgeOptions& options,
                      std::uint64_t first_stream) {
  BatchedChains<double> chains(options.samples, model.n_visible(), model.n_hidden(), options.seed, first_stream);
  MatrixD start(options.samples, model.n_visible());
  for (Eigen::Index chain = 0; chain < options.samples; ++chain)
    start.row(chain) = training_rows.row(chain % training_rows.rows());
  chains.set_visible(start);
  const UnitRule gibbs = GibbsRule{};
  for (Eigen::Index sweep = 0; sweep < options.sweeps; ++sweep) chains.sweep(model, gibbs);
  return chains.visible();
}

}  // namespace

std::vector<SavedModelLogPartition> saved_model_log_partitions(const Trajectory& trajectory,
                                                               const MatrixD& training_rows,
                                                               const SavedModelBridgeOptions& options) {
  require(options.samples >= 2, "--samples: at least 2 (for the standard error), got " +
                                    std::to_string(options.samples));
  require(options.sweeps >= 1, "--sweeps: at least 1, got " + std::to_string(options.sweeps));
  check_trajectory_and_rows(trajectory, training_rows);
  const auto samples = static_cast<std::uint64_t>(options.samples);
  Rbm previous = trajectory.independent_model();
  LogPartitionDifference accumulated{independent_log_partition(previous), 0.0};
  double accumulated_variance = 0.0;
  std::vector<SavedModelLogPartition> rungs;
  const DistinctRows distinct = distinct_rows(training_rows);  // one deduplication for every model
  for (std::size_t link = 0; link < trajectory.models.size(); ++link) {
    const Rbm& model = trajectory.models[link].parameters;
    // Link l draws its two sample sets on streams of its own, so no two links share a sample.
    const MatrixD of_previous = chain_samples(previous, training_rows, options, 2 * link * samples);
    const MatrixD of_model = chain_samples(model, training_rows, options, (2 * link + 1) * samples);
    SavedModelLogPartition rung;
    rung.update = trajectory.models[link].update;
    rung.bennett = bennett_acceptance_ratio(previous, model, of_previous, of_model);
    rung.free_energy_perturbation = free_energy_perturbation(previous, model, of_previous);
    accumulated.value += rung.bennett.value;
    accumulated_variance += rung.bennett.standard_error * rung.bennett.standard_error;
    accumulated.standard_error = std::sqrt(accumulated_variance);
    rung.log_partition = accumulated;
    const FreeEnergySummary rows_summary = mean_free_energy_and_bound(model, distinct);
    rung.train_log_likelihood = -rows_summary.mean_free_energy - accumulated.value;
    rung.distinct_rows_bound = rows_summary.distinct_rows_bound;
    rungs.push_back(rung);
    previous = model;
    if (options.on_link) options.on_link(link + 1);
  }
  return rungs;
}

std::vector<AnnealedSavedModel> anneal_along_saved_models(const Trajectory& trajectory, const MatrixD& training_rows,
                                                          const SavedModelAnnealingOptions& options) {
  check_trajectory_and_rows(trajectory, training_rows);
  if (std::string why; !options.particles.is_valid(&why)) throw InputError(why);
  require(options.step_size > 0.0 && std::isfinite(options.step_size),
          "--step-size: expected a positive number of nats, got " + std::to_string(options.step_size));
  require(options.reference_rows > 0, "reference rows: at least 1");
  const MatrixD reference_rows = spread_rows(training_rows, options.reference_rows);
  const DistinctRows distinct = distinct_rows(training_rows);  // one deduplication for every model
  // The monitor's start: the first model's independent model, exact, then its bridge (trajectory_log_partition.hpp).
  const Rbm& first = trajectory.models.front().parameters;
  TrajectoryLogPartition particles(first, options.particles);
  std::vector<AnnealedSavedModel> annealed;
  VectorD reached_free_energies = first.free_energy(reference_rows);
  for (std::size_t index = 0; index < trajectory.models.size(); ++index) {
    const Rbm& model = trajectory.models[index].parameters;
    AnnealedSavedModel point;
    point.update = trajectory.models[index].update;
    if (index == 0) {
      point.steps = first.weights.isZero(0.0) ? 0 : initial_bridge_steps;
    } else {
      VectorD free_energies = model.free_energy(reference_rows);
      point.steps = anneal_in_sized_steps(particles, trajectory.models[index - 1].parameters, model,
                                          reached_free_energies, free_energies, options.step_size);
      reached_free_energies = std::move(free_energies);
    }
    point.log_partition = particles.estimate();
    const FreeEnergySummary rows_summary = mean_free_energy_and_bound(model, distinct);
    point.train_log_likelihood = -rows_summary.mean_free_energy - point.log_partition.log_partition;
    point.distinct_rows_bound = rows_summary.distinct_rows_bound;
    annealed.push_back(point);
    if (options.on_model) options.on_model(index + 1);
  }
  return annealed;
}

}  // namespace rbmix
