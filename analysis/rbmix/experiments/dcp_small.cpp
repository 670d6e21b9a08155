#include "rbmix/experiments/dcp_small.hpp"

#include <algorithm>
#include <cmath>

#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/experiments/training_trials.hpp"

namespace rbmix::experiments {

DcpSmallConfig dcp_small_config(const std::string& scale, std::uint64_t seed) {
  require(scale == "smoke" || scale == "paper", "--scale must be smoke or paper, got '" + scale + "'");
  DcpSmallConfig config;
  config.seed = seed;
  const BinaryMatrix bars = bars_and_stripes(3);
  const BinaryMatrix bar = shifting_bar(9, 1);
  config.data_sets = {{"bars-and-stripes-3x3", bars, best_average_log_likelihood(bars)},
                      {"shifting-bar-9-1", bar, best_average_log_likelihood(bar)}};
  if (scale == "smoke") {
    config.trials = 3;
    config.epochs = 200;
    config.evaluation_interval = 20;
  }
  return config;
}

std::int64_t epoch_to_fraction_of_maximum(const std::vector<double>& curve, const std::vector<std::int64_t>& epochs,
                                          double fraction) {
  require(!curve.empty() && curve.size() == epochs.size(), "epoch_to_fraction_of_maximum: curve and epochs differ");
  double maximum = -INFINITY;
  for (double value : curve)
    if (std::isfinite(value)) maximum = std::max(maximum, value);
  const double target = curve.front() + fraction * (maximum - curve.front());
  for (std::size_t k = 0; k < curve.size(); ++k)
    if (curve[k] >= target) return epochs[k];
  return epochs.back();
}

DcpSmallResult run_dcp_small(const DcpSmallConfig& config) {
  require(config.trials > 0, "dcp-small: the number of trials must be positive");
  std::vector<MatrixD> data;
  for (const auto& set : config.data_sets) data.push_back(to_real(set.data));
  DcpSmallResult result;
  for (std::int64_t epoch = 0; epoch <= config.epochs; epoch += config.evaluation_interval)
    result.evaluation_epochs.push_back(epoch);

  std::vector<TrainingJob> jobs;
  for (std::size_t set = 0; set < config.data_sets.size(); ++set)
    for (Algorithm algorithm : config.algorithms)
      for (double rate : config.learning_rates) {
        result.curves.push_back({set, algorithm, rate, {}, 0.0, 0.0, 0, 0});
        for (int trial = 0; trial < config.trials; ++trial) {
          TrainingOptions options;
          apply_algorithm(options, algorithm, config.inner_steps);
          const bool dcp = algorithm == Algorithm::sdcp || algorithm == Algorithm::csdcp;
          options.sampling_steps = dcp ? config.inner_sweeps : config.sweeps;
          options.rule = config.rule;
          options.learning_rate = rate;
          options.batch_size = 0;
          options.updates = config.epochs;
          options.evaluation_interval = config.evaluation_interval;
          options.seed = trial_seed(config.seed, trial);
          jobs.push_back({options, &data[set], config.hidden});
        }
      }
  const std::vector<TrainingSummary> summaries = run_training_jobs(jobs, config.threads);

  const std::size_t points = result.evaluation_epochs.size();
  for (std::size_t curve_index = 0; curve_index < result.curves.size(); ++curve_index) {
    DcpCurve& curve = result.curves[curve_index];
    curve.mean_log_likelihood.assign(points, 0.0);
    for (int trial = 0; trial < config.trials; ++trial) {
      const TrainingSummary& summary =
          summaries[curve_index * static_cast<std::size_t>(config.trials) + static_cast<std::size_t>(trial)];
      std::vector<double> values = train_log_likelihoods(summary);
      if (summary.termination == Termination::diverged) ++curve.diverged_trials;
      // A diverged run keeps its last value (its parameters stop changing), so the mean stays defined.
      values.resize(points, values.empty() ? std::nan("") : values.back());
      for (std::size_t k = 0; k < points; ++k) curve.mean_log_likelihood[k] += values[k] / config.trials;
    }
    curve.maximum = *std::max_element(curve.mean_log_likelihood.begin(), curve.mean_log_likelihood.end());
    curve.final = curve.mean_log_likelihood.back();
    curve.epoch_to_90_percent = epoch_to_fraction_of_maximum(curve.mean_log_likelihood, result.evaluation_epochs, 0.9);
  }
  return result;
}

}  // namespace rbmix::experiments
