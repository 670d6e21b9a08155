#include "rbmix/experiments/training_trials.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "rbmix/core/error.hpp"
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
  const std::vector<TrainingSummary> summaries = run_training_jobs(jobs, JobRunner(2), JobPhase{0}).value();
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
      run_training_jobs({{options, &data, 4, &rows}}, JobRunner(1), JobPhase{0}).value();
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

// A journaled summary reads back to the bit; one whose curve holds a number no run writes (an infinity, a NaN), or
// that lost its curve but kept its best and final points, is refused saying what is wrong.
TEST(TrainingTrials, JournaledSummariesAreReadBackOrRefused) {
  const MatrixD data = to_real(bars_and_stripes(3));
  const TrainingSummary trained =
      run_training_jobs({{short_training(3), &data, 4}}, JobRunner(1), JobPhase{0}).value()[0];
  TrainingSummary read;
  from_grid_json(to_grid_json(trained), read);
  EXPECT_EQ(train_log_likelihoods(read), train_log_likelihoods(trained));
  const auto refusal = [&](const std::function<void(TrainingSummary&)>& damage) {
    TrainingSummary damaged = trained;
    damage(damaged);
    TrainingSummary restored;
    try {
      from_grid_json(to_grid_json(damaged), restored);
    } catch (const InputError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal([](TrainingSummary& s) { s.learning_curve[1].train_log_likelihood = INFINITY; }),
            "field 'learning_curve[1].train_log_likelihood': inf is not a finite number");
  EXPECT_EQ(refusal([](TrainingSummary& s) { s.learning_curve[0].train_log_likelihood = NAN; }),
            "field 'learning_curve[0].train_log_likelihood': nan is not a finite number");
  EXPECT_EQ(refusal([](TrainingSummary& s) { s.learning_curve.clear(); }),
            "field 'learning_curve': 0 points that do not hold its best and final evaluations");
  EXPECT_EQ(refusal([](TrainingSummary& s) { s.learning_curve.pop_back(); }),
            "field 'learning_curve': 2 points that do not hold its best and final evaluations");
  EXPECT_EQ(refusal([](TrainingSummary& s) { s.seconds = -1.0; }), "field 'seconds': -0x1p+0 is below 0");
}

}  // namespace
}  // namespace rbmix::experiments
