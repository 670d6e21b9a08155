#include "rbmix/experiments/training_trials.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "rbmix/data/datasets.hpp"
#include "rbmix/model/exact.hpp"

namespace rbmix::experiments {
namespace {

TrainingOptions short_training(std::uint64_t seed) {
  TrainingOptions options;
  options.learning_rate = 0.1;
  options.updates = 20;
  options.evaluation_interval = 10;
  options.seed = seed;
  return options;
}

// The jobs' summaries come back in job order and equal a run of each job on its own.
TEST(TrainingTrials, SummariesAreThoseOfEachJobRunAlone) {
  const MatrixD data = to_real(bars_and_stripes(3));
  const std::vector<TrainingJob> jobs{{short_training(1), &data, 4}, {short_training(2), &data, 3}};
  const std::vector<TrainingSummary> summaries = run_training_jobs(jobs, JobRunner(2), JobPhase{0});
  ASSERT_EQ(summaries.size(), 2u);
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    Trainer alone(jobs[k].options, data, MatrixD(), jobs[k].n_hidden);
    EXPECT_EQ(train_log_likelihoods(summaries[k]), train_log_likelihoods(alone.run()));
  }
}

// Given evaluation rows, the learning curve is the exact average log-likelihood of those rows.
TEST(TrainingTrials, LearningCurveAveragesOverTheEvaluationRows) {
  const MatrixD data = to_real(bars_and_stripes(3));
  const MatrixD rows = data.topRows(3);
  TrainingOptions options = short_training(5);
  options.updates = 0;
  const std::vector<TrainingSummary> summaries =
      run_training_jobs({{options, &data, 4, &rows}}, JobRunner(1), JobPhase{0});
  Trainer untrained(options, data, MatrixD(), 4);
  const Rbm rbm = untrained.model();
  const std::vector<double> curve = train_log_likelihoods(summaries[0]);
  ASSERT_EQ(curve.size(), 1u);
  EXPECT_DOUBLE_EQ(curve[0], exact_average_log_likelihood(rbm, rows, exact_log_partition(rbm)));
}

TEST(TrainingTrials, MissingLikelihoodsAreNaN) {
  TrainingSummary summary;
  summary.learning_curve.push_back(EvaluationPoint{});
  ASSERT_EQ(train_log_likelihoods(summary).size(), 1u);
  EXPECT_TRUE(std::isnan(train_log_likelihoods(summary)[0]));
}

}  // namespace
}  // namespace rbmix::experiments
