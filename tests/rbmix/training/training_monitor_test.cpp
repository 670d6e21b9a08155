#include "rbmix/training/training_monitor.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "rbmix/core/error.hpp"
#include "rbmix/model/exact.hpp"
#include "rbmix/model/pseudo_likelihood.hpp"
#include "rbmix/training/test_models.hpp"
#include "rbmix/training/trainer.hpp"
#include "support/input_error_message.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;

TrainingOptions pcd_options(MonitorKind monitor) {
  TrainingOptions options;
  apply_algorithm(options, Algorithm::pcd);
  options.learning_rate = 0.05;
  options.batch_size = 10;
  options.updates = 40;
  options.evaluation_interval = 10;
  options.seed = 5;
  options.monitor.kind = monitor;
  options.monitor.ais_particles = 16;
  options.monitor.ais_distributions = 200;
  return options;
}

TEST(ResolveMonitor, AutomaticIsExactWhereEnumerableAndAisBeyond) {
  const MonitorOptions automatic;
  EXPECT_EQ(resolve_monitor(automatic, 784, 25, 0, 25), MonitorKind::exact);
  EXPECT_EQ(resolve_monitor(automatic, 784, 26, 0, 25), MonitorKind::ais);
  EXPECT_EQ(resolve_monitor(automatic, 20, 100, 0, 25), MonitorKind::exact);
  EXPECT_EQ(resolve_monitor(automatic, 794, 100, 10, 25), MonitorKind::classification);
}

TEST(ResolveMonitor, AnExplicitKindThatCannotRunIsRefusedSayingWhy) {
  MonitorOptions options;
  options.kind = MonitorKind::exact;
  EXPECT_THAT(testing::input_error_message([&] { resolve_monitor(options, 784, 100, 0, 25); }),
              HasSubstr("2^100 states"));
  options.kind = MonitorKind::ais;
  EXPECT_THAT(testing::input_error_message([&] { resolve_monitor(options, 794, 100, 10, 25); }),
              HasSubstr("classification error"));
  options.kind = MonitorKind::classification;
  EXPECT_THAT(testing::input_error_message([&] { resolve_monitor(options, 784, 100, 0, 25); }),
              HasSubstr("no labels"));
  options.kind = MonitorKind::ais;
  options.ais_particles = 1;
  EXPECT_THAT(testing::input_error_message([&] { resolve_monitor(options, 784, 100, 0, 25); }),
              HasSubstr("at least 2 particles"));
}

TEST(MonitorKindNames, RoundTrip) {
  for (const auto kind : {MonitorKind::automatic, MonitorKind::exact, MonitorKind::ais, MonitorKind::proxies,
                          MonitorKind::classification})
    EXPECT_EQ(parse_monitor_kind(to_string(kind)), kind);
  EXPECT_THROW(parse_monitor_kind("exactly"), InputError);
}

// The monitor only reads the model: the parameters of a run are the same bits whichever monitor watches it, because
// the AIS monitor draws from its own stream domain and never from the training's streams.
TEST(TrainingMonitor, DoesNotChangeTheTrainedParameters) {
  const MatrixD train = testing::random_binary_rows(60, 12, 1);
  const MatrixD test = testing::random_binary_rows(30, 12, 2);
  Trainer exact(pcd_options(MonitorKind::exact), train, test, 6);
  Trainer ais(pcd_options(MonitorKind::ais), train, test, 6);
  Trainer proxies(pcd_options(MonitorKind::proxies), train, test, 6);
  exact.run();
  ais.run();
  proxies.run();
  EXPECT_EQ(exact.model().weights, ais.model().weights);
  EXPECT_EQ(exact.model().weights, proxies.model().weights);
  EXPECT_EQ(exact.model().hidden_bias, ais.model().hidden_bias);
  EXPECT_EQ(exact.model().visible_bias, proxies.model().visible_bias);
}

// Every point of an AIS-monitored run holds an estimate with its band and the proxies; the same seed gives the same
// curve; and the estimate agrees with the exact log-likelihood of the same model. The band is ±3 standard errors
// of the mean weight: on this 12 × 6 model 16 particles × 200 distributions give log w a spread well under 1, so
// the estimate lies within 0.1 nats of the exact value (fixed seed; deterministic).
constexpr double kAisAgreement = 0.1;

TEST(TrainingMonitor, AisPointsHoldTheEstimateItsBandAndTheProxies) {
  const MatrixD train = testing::random_binary_rows(60, 12, 1);
  const MatrixD test = testing::random_binary_rows(30, 12, 2);
  Trainer ais(pcd_options(MonitorKind::ais), train, test, 6);
  const TrainingSummary summary = ais.run();
  Trainer again(pcd_options(MonitorKind::ais), train, test, 6);
  const TrainingSummary repeated = again.run();
  ASSERT_EQ(summary.learning_curve.size(), 5u);
  for (std::size_t k = 0; k < summary.learning_curve.size(); ++k) {
    const EvaluationPoint& point = summary.learning_curve[k];
    ASSERT_TRUE(point.train_log_likelihood && point.test_log_likelihood);
    ASSERT_TRUE(point.train_log_likelihood_lower && point.train_log_likelihood_upper);
    ASSERT_TRUE(point.test_log_likelihood_lower && point.test_log_likelihood_upper);
    EXPECT_LE(*point.train_log_likelihood_lower, *point.train_log_likelihood);
    EXPECT_GE(*point.train_log_likelihood_upper, *point.train_log_likelihood);
    ASSERT_TRUE(point.train_pseudo_log_likelihood && point.test_pseudo_log_likelihood);
    ASSERT_TRUE(point.train_reconstruction_error && point.test_reconstruction_error && point.free_energy_gap);
    EXPECT_EQ(*point.train_log_likelihood, *repeated.learning_curve[k].train_log_likelihood);
  }
  const Rbm model = ais.model();
  const double exact = exact_average_log_likelihood(model, train, exact_log_partition(model));
  EXPECT_NEAR(*summary.final->train_log_likelihood, exact, kAisAgreement);
  EXPECT_DOUBLE_EQ(*summary.final->train_pseudo_log_likelihood, mean_log_pseudo_likelihood(model, train));
  EXPECT_DOUBLE_EQ(*summary.final->free_energy_gap, model.free_energy(test).mean() - model.free_energy(train).mean());
}

// The exact monitor gives the numbers the trainer gave before the monitor existed: the exact average
// log-likelihood of the final model.
TEST(TrainingMonitor, ExactPointsAreTheExactLogLikelihood) {
  const MatrixD train = testing::random_binary_rows(60, 12, 1);
  Trainer trainer(pcd_options(MonitorKind::automatic), train, {}, 6);
  EXPECT_EQ(trainer.monitor().kind(), MonitorKind::exact);
  const TrainingSummary summary = trainer.run();
  const Rbm model = trainer.model();
  EXPECT_DOUBLE_EQ(*summary.final->train_log_likelihood,
                   exact_average_log_likelihood(model, train, exact_log_partition(model)));
  EXPECT_FALSE(summary.final->train_log_likelihood_lower);
  EXPECT_FALSE(summary.final->test_log_likelihood);
  EXPECT_FALSE(summary.final->free_energy_gap);
}

TEST(TrainingMonitor, ProxiesOnlyRecordNoLikelihoodAndChooseTheBestByPseudoLikelihood) {
  const MatrixD train = testing::random_binary_rows(60, 12, 1);
  Trainer trainer(pcd_options(MonitorKind::proxies), train, {}, 6);
  const TrainingSummary summary = trainer.run();
  ASSERT_TRUE(summary.best);
  EXPECT_FALSE(summary.best->train_log_likelihood);
  for (const auto& point : summary.learning_curve)
    EXPECT_LE(*point.train_pseudo_log_likelihood, *summary.best->train_pseudo_log_likelihood);
  EXPECT_EQ(monitored_score_name(*summary.best), "train_pseudo_log_likelihood");
}

}  // namespace
}  // namespace rbmix
