#include "rbmix/experiments/training_trials.hpp"

#include <omp.h>

#include <exception>
#include <limits>

#include "rbmix/model/exact.hpp"

namespace rbmix::experiments {

std::uint64_t trial_seed(std::uint64_t seed, int trial) {
  RandomStream stream(seed, static_cast<std::uint64_t>(trial), StreamDomain::experiment);
  return stream();
}

std::vector<TrainingSummary> run_training_jobs(const std::vector<TrainingJob>& jobs, int threads) {
  std::vector<TrainingSummary> summaries(jobs.size());
  std::exception_ptr failure;
  const int team = threads > 0 ? threads : omp_get_max_threads();
  const auto count = static_cast<std::int64_t>(jobs.size());
#pragma omp parallel for schedule(dynamic) num_threads(team)
  for (std::int64_t index = 0; index < count; ++index) {
    try {
      // The runs are tiny: their own OpenMP regions would cost more than they save, so they run serially.
      omp_set_num_threads(1);
      const TrainingJob& job = jobs[static_cast<std::size_t>(index)];
      Trainer trainer(job.options, *job.data, MatrixD(), job.n_hidden);
      TrainingHooks hooks;
      if (job.evaluation_data != nullptr)
        hooks.estimate_log_likelihood = [&job](const Rbm& rbm, const MatrixD&) {
          return exact_average_log_likelihood(rbm, *job.evaluation_data, exact_log_partition(rbm));
        };
      summaries[static_cast<std::size_t>(index)] = trainer.run(hooks);
    } catch (...) {
#pragma omp critical(rbmix_training_jobs_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  return summaries;
}

std::vector<double> train_log_likelihoods(const TrainingSummary& summary) {
  std::vector<double> values;
  values.reserve(summary.learning_curve.size());
  for (const auto& point : summary.learning_curve)
    values.push_back(point.train_log_likelihood.value_or(std::numeric_limits<double>::quiet_NaN()));
  return values;
}

}  // namespace rbmix::experiments
