#include "rbmix/experiments/training_trials.hpp"

#include <limits>

#include "rbmix/model/exact.hpp"

namespace rbmix::experiments {

std::vector<TrainingSummary> run_training_jobs(const std::vector<TrainingJob>& jobs, const JobRunner& runner) {
  return run_jobs(runner, jobs.size(), [&jobs](std::size_t index) {
    const TrainingJob& job = jobs[index];
    Trainer trainer(job.options, *job.data, MatrixD(), job.n_hidden);
    TrainingHooks hooks;
    if (job.evaluation_data != nullptr)
      hooks.estimate_log_likelihood = [&job](const Rbm& rbm, const MatrixD&) {
        return exact_average_log_likelihood(rbm, *job.evaluation_data, exact_log_partition(rbm));
      };
    return trainer.run(hooks);
  });
}

std::vector<double> train_log_likelihoods(const TrainingSummary& summary) {
  std::vector<double> values;
  values.reserve(summary.learning_curve.size());
  for (const auto& point : summary.learning_curve)
    values.push_back(point.train_log_likelihood.value_or(std::numeric_limits<double>::quiet_NaN()));
  return values;
}

}  // namespace rbmix::experiments
