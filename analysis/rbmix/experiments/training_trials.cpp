#include "rbmix/experiments/training_trials.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "rbmix/core/error.hpp"
#include "rbmix/experiments/exact_number.hpp"
#include "rbmix/jobs/job_progress.hpp"
#include "rbmix/model/exact.hpp"

namespace rbmix {
namespace {

nlohmann::json optional_exact_number(const std::optional<double>& value) {
  return value ? experiments::exact_number(*value) : nlohmann::json(nullptr);
}

// A training run evaluates only finite parameters (it stops at the first update that is not), so every number of
// its learning curve is finite: a journaled infinity or NaN is damage, which would otherwise reach the tables.
std::optional<double> read_optional_finite(const experiments::JournaledValue& json) {
  if (json.is_null()) return std::nullopt;
  return json.finite();
}

nlohmann::json point_to_grid_json(const EvaluationPoint& point) {
  return {{"update", point.update},
          {"epoch", experiments::exact_number(point.epoch)},
          {"train_log_likelihood", optional_exact_number(point.train_log_likelihood)},
          {"test_log_likelihood", optional_exact_number(point.test_log_likelihood)}};
}

EvaluationPoint point_from_grid_json(const experiments::JournaledValue& json) {
  EvaluationPoint point;
  point.update = json["update"].integer<std::int64_t>(0);
  point.epoch = json["epoch"].at_least(0.0);
  point.train_log_likelihood = read_optional_finite(json["train_log_likelihood"]);
  point.test_log_likelihood = read_optional_finite(json["test_log_likelihood"]);
  return point;
}

nlohmann::json optional_point(const std::optional<EvaluationPoint>& point) {
  return point ? point_to_grid_json(*point) : nlohmann::json(nullptr);
}

std::optional<EvaluationPoint> read_optional_point(const experiments::JournaledValue& json) {
  if (json.is_null()) return std::nullopt;
  return point_from_grid_json(json);
}

}  // namespace

nlohmann::json to_grid_json(const TrainingSummary& summary) {
  nlohmann::json curve = nlohmann::json::array();
  for (const auto& point : summary.learning_curve) curve.push_back(point_to_grid_json(point));
  return {{"termination", static_cast<int>(summary.termination)},
          {"message", summary.message},
          {"updates_done", summary.updates_done},
          {"learning_curve", curve},
          {"best", optional_point(summary.best)},
          {"final", optional_point(summary.final)},
          {"seconds", experiments::exact_number(summary.seconds)}};
}

void from_grid_json(const nlohmann::json& json, TrainingSummary& summary) {
  const experiments::JournaledValue journaled(json);
  const int termination = journaled["termination"].integer<int>(static_cast<int>(Termination::completed));
  journaled["termination"].require_that(termination <= static_cast<int>(Termination::interrupted),
                                        "an unknown termination " + std::to_string(termination));
  summary.termination = static_cast<Termination>(termination);
  summary.message = journaled["message"].text();
  summary.updates_done = journaled["updates_done"].integer<std::int64_t>(0);
  summary.learning_curve.clear();
  for (const experiments::JournaledValue& point : journaled["learning_curve"].elements())
    summary.learning_curve.push_back(point_from_grid_json(point));
  summary.best = read_optional_point(journaled["best"]);
  summary.final = read_optional_point(journaled["final"]);
  // The final evaluation is the curve's last point and the best one of its points; without a curve there are none.
  const auto on_curve = [&](const EvaluationPoint& point) {
    return std::any_of(summary.learning_curve.begin(), summary.learning_curve.end(),
                       [&](const EvaluationPoint& held) { return held.update == point.update; });
  };
  journaled["learning_curve"].require_that(
      summary.learning_curve.empty() ? !summary.best && !summary.final
                                     : summary.final && summary.final->update == summary.learning_curve.back().update &&
                                           (!summary.best || on_curve(*summary.best)),
      std::to_string(summary.learning_curve.size()) + " points that do not hold its best and final evaluations");
  summary.seconds = journaled["seconds"].at_least(0.0);
}

}  // namespace rbmix

namespace rbmix::experiments {

OrPartDone<std::vector<TrainingSummary>> run_training_jobs(const std::vector<TrainingJob>& jobs,
                                                           const JobRunner& runner, JobPhase phase) {
  return run_jobs(runner, phase, jobs.size(), [&jobs](std::size_t index, const JobProgress& progress) {
    const TrainingJob& job = jobs[index];
    Trainer trainer(job.options, *job.data, MatrixD(), job.n_hidden);
    TrainingHooks hooks;
    hooks.on_update = progress.training(job.options.updates);
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
