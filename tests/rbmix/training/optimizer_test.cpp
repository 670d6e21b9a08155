#include "rbmix/training/optimizer.hpp"

#include <gtest/gtest.h>
#include <omp.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "rbmix/training/test_models.hpp"
#include "rbmix/verify/generators.hpp"

namespace rbmix {
namespace {

// Closed forms evaluated in a different order than the optimizer sums its steps: a few ulps of the parameters.
constexpr double kClosedFormTolerance = 1e-12;
// η (1 − t/U) rounds 1 − t/U once (absolute error ≤ 1.1e-16) before scaling by η ≤ 1.
constexpr double kScheduleTolerance = 2e-16;

// A 2-visible, 1-hidden model and a gradient whose entries are short dyadic fractions, as are the learning rate,
// decay and momentum below: every intermediate of the hand-computed steps is exactly representable, so the
// optimizer must reproduce them to the last bit whatever order it evaluates in.
Rbm start_parameters() {
  Rbm rbm(2, 1);
  rbm.weights << 1.0, -2.0;
  rbm.visible_bias << 0.5, 0.25;
  rbm.hidden_bias << -1.0;
  return rbm;
}
Rbm dyadic_gradient() {
  Rbm gradient(2, 1);
  gradient.weights << 0.5, 0.25;
  gradient.visible_bias << 1.0, -1.0;
  gradient.hidden_bias << 2.0;
  return gradient;
}
constexpr double kLearningRate = 0.5;
constexpr double kWeightDecay = 0.25;
constexpr double kMomentum = 0.5;

void expect_parameters(const Rbm& rbm, const Eigen::RowVector2d& weights, const Eigen::Vector2d& visible_bias,
                       double hidden_bias) {
  EXPECT_EQ(rbm.weights, MatrixD(weights)) << rbm.weights;
  EXPECT_EQ(rbm.visible_bias, VectorD(visible_bias)) << rbm.visible_bias.transpose();
  EXPECT_EQ(rbm.hidden_bias[0], hidden_bias);
}

double max_difference(const Rbm& a, const Rbm& b) {
  return std::max({(a.weights - b.weights).cwiseAbs().maxCoeff(),
                   (a.visible_bias - b.visible_bias).cwiseAbs().maxCoeff(),
                   (a.hidden_bias - b.hidden_bias).cwiseAbs().maxCoeff()});
}

TEST(ScheduledLearningRate, ConstantScheduleNeverChanges) {
  TrainingOptions options;
  options.learning_rate = 0.05;
  options.updates = 1000;
  for (std::int64_t update : {0, 1, 500, 999, 1000}) EXPECT_EQ(scheduled_learning_rate(options, update), 0.05);
}

// 000 §4.5: η (1 − t/U), from η at the first update down to 0 after the last.
TEST(ScheduledLearningRate, LinearDecayFallsFromTheRateToZero) {
  TrainingOptions options;
  options.learning_rate = 0.2;
  options.schedule = LearningRateSchedule::linear_decay;
  options.updates = 1000;
  EXPECT_EQ(scheduled_learning_rate(options, 0), 0.2);
  EXPECT_NEAR(scheduled_learning_rate(options, 250), 0.15, kScheduleTolerance);
  EXPECT_NEAR(scheduled_learning_rate(options, 500), 0.1, kScheduleTolerance);
  EXPECT_NEAR(scheduled_learning_rate(options, 999), 0.2 * 0.001, kScheduleTolerance);
  EXPECT_EQ(scheduled_learning_rate(options, 1000), 0.0);
}

TEST(ScheduledLearningRate, LinearDecayOverZeroUpdatesKeepsTheRate) {
  TrainingOptions options;
  options.learning_rate = 0.2;
  options.schedule = LearningRateSchedule::linear_decay;
  options.updates = 0;
  EXPECT_EQ(scheduled_learning_rate(options, 0), 0.2);
}

TEST(Optimizer, PlainStepIsGradientAscent) {
  Rbm parameters = start_parameters();
  Optimizer(0.0, 0.0, 2, 1).step(parameters, dyadic_gradient(), kLearningRate);
  // θ + η g.
  expect_parameters(parameters, {1.25, -1.875}, {1.0, -0.25}, 0.0);
}

TEST(Optimizer, WeightDecayShrinksOnlyTheWeights) {
  Rbm parameters = start_parameters();
  Optimizer(0.0, kWeightDecay, 2, 1).step(parameters, dyadic_gradient(), kLearningRate);
  // W + η (g − λ W) = [1, −2] + 0.5 ([0.5, 0.25] − 0.25 [1, −2]) = [1.125, −1.625]; the biases as without decay.
  expect_parameters(parameters, {1.125, -1.625}, {1.0, -0.25}, 0.0);
}

TEST(Optimizer, MomentumAndWeightDecayOverTwoHandComputedSteps) {
  Rbm parameters = start_parameters();
  Optimizer optimizer(kMomentum, kWeightDecay, 2, 1);
  optimizer.step(parameters, dyadic_gradient(), kLearningRate);
  // v₁ = η(g − λW₀): W [0.125, 0.375], b [0.5, −0.5], c [1].
  expect_parameters(parameters, {1.125, -1.625}, {1.0, -0.25}, 0.0);
  expect_parameters(optimizer.velocity(), {0.125, 0.375}, {0.5, -0.5}, 1.0);
  optimizer.step(parameters, dyadic_gradient(), kLearningRate);
  // v₂ = μ v₁ + η(g − λW₁): W 0.5 [0.125, 0.375] + [0.25, 0.125] − 0.125 [1.125, −1.625] = [0.171875, 0.515625],
  // b 0.5 [0.5, −0.5] + [0.5, −0.5] = [0.75, −0.75], c 0.5 + 1 = 1.5.
  expect_parameters(optimizer.velocity(), {0.171875, 0.515625}, {0.75, -0.75}, 1.5);
  expect_parameters(parameters, {1.296875, -1.109375}, {1.75, -1.0}, 1.5);
}

// The learning rate is an argument of each step (the schedule lives outside): halving it halves a plain step.
TEST(Optimizer, UsesTheLearningRateOfEachStep) {
  Rbm parameters = start_parameters();
  Optimizer optimizer(0.0, 0.0, 2, 1);
  optimizer.step(parameters, dyadic_gradient(), kLearningRate);
  optimizer.step(parameters, dyadic_gradient(), kLearningRate / 2);
  // θ + (η + η/2) g = [1, −2] + 0.75 [0.5, 0.25], ...
  expect_parameters(parameters, {1.375, -1.8125}, {1.25, -0.5}, 0.5);
}

// From zero velocity the first step is η(g − λW) whatever the momentum: the momentum form and the one-pass form
// (momentum 0) must agree.
RC_GTEST_PROP(Optimizer, FirstStepDoesNotDependOnMomentum, ()) {
  const Rbm start = *verify::arbitrary_rbm(3, 2, 2.0);
  const Rbm gradient = *verify::arbitrary_rbm(3, 2, 2.0);
  const double momentum = *rc::gen::inRange(1, 100) / 100.0;
  const double weight_decay = *rc::gen::inRange(0, 100) / 100.0;
  Rbm with_momentum = start, without_momentum = start;
  Optimizer(momentum, weight_decay, 3, 2).step(with_momentum, gradient, 0.1);
  Optimizer(0.0, weight_decay, 3, 2).step(without_momentum, gradient, 0.1);
  RC_ASSERT(max_difference(with_momentum, without_momentum) < kClosedFormTolerance);
}

// A constant gradient g with momentum μ: v_k = η g (1 − μ^k)/(1 − μ), so after t steps
// θ_t − θ₀ = η g (t − μ (1 − μ^t)/(1 − μ)) / (1 − μ).
RC_GTEST_PROP(Optimizer, MomentumUnderAConstantGradientFollowsTheGeometricSeries, ()) {
  const Rbm start = *verify::arbitrary_rbm(2, 3, 1.0);
  const Rbm gradient = *verify::arbitrary_rbm(2, 3, 1.0);
  const double momentum = *rc::gen::inRange(1, 96) / 100.0;
  const int steps = *rc::gen::inRange(1, 21);
  constexpr double kLearningRateHere = 0.1;
  Rbm parameters = start;
  Optimizer optimizer(momentum, 0.0, 2, 3);
  for (int t = 0; t < steps; ++t) optimizer.step(parameters, gradient, kLearningRateHere);
  const double factor =
      kLearningRateHere * (steps - momentum * (1 - std::pow(momentum, steps)) / (1 - momentum)) / (1 - momentum);
  Rbm expected = start;
  expected.weights += factor * gradient.weights;
  expected.visible_bias += factor * gradient.visible_bias;
  expected.hidden_bias += factor * gradient.hidden_bias;
  RC_ASSERT(max_difference(parameters, expected) < kClosedFormTolerance);
}

// Decay alone (zero gradient, no momentum) shrinks W geometrically, W_t = (1 − ηλ)^t W₀, and leaves the biases.
RC_GTEST_PROP(Optimizer, DecayAloneShrinksWeightsGeometrically, ()) {
  const Rbm start = *verify::arbitrary_rbm(3, 3, 2.0);
  const double weight_decay = *rc::gen::inRange(1, 100) / 100.0;
  const int steps = *rc::gen::inRange(1, 21);
  constexpr double kLearningRateHere = 0.5;
  Rbm parameters = start;
  Optimizer optimizer(0.0, weight_decay, 3, 3);
  for (int t = 0; t < steps; ++t) optimizer.step(parameters, Rbm(3, 3), kLearningRateHere);
  Rbm expected = start;
  expected.weights *= std::pow(1 - kLearningRateHere * weight_decay, steps);
  RC_ASSERT(max_difference(parameters, expected) < kClosedFormTolerance);
}

// velocity() is the last step taken: θ_t − θ_{t−1}.
RC_GTEST_PROP(Optimizer, VelocityIsTheLastStep, ()) {
  Rbm parameters = *verify::arbitrary_rbm(2, 2, 1.0);
  const double momentum = *rc::gen::inRange(1, 100) / 100.0;
  Optimizer optimizer(momentum, 0.1, 2, 2);
  const int steps = *rc::gen::inRange(1, 6);
  Rbm before = parameters;
  for (int t = 0; t < steps; ++t) {
    before = parameters;
    optimizer.step(parameters, *verify::arbitrary_rbm(2, 2, 1.0), 0.1);
  }
  Rbm step = parameters;
  step.weights -= before.weights;
  step.visible_bias -= before.visible_bias;
  step.hidden_bias -= before.hidden_bias;
  RC_ASSERT(max_difference(optimizer.velocity(), step) < kClosedFormTolerance);
}

// The fused step reads the gradient from the statistics exactly as statistics_difference writes it, so both give
// the same parameters bit for bit (with momentum and decay, and for shapes spanning several blocks of the pass);
// its float copy is the cast of the result and its return value the largest |θ|.
RC_GTEST_PROP(Optimizer, StepFromStatisticsIsTheStepFromTheStoredGradient, ()) {
  const Eigen::Index n_visible = *rc::gen::inRange(1, 90);
  const Eigen::Index n_hidden = *rc::gen::inRange(1, 40);
  const Rbm start = *verify::arbitrary_rbm(n_visible, n_hidden, 2.0);
  const auto statistics = [&] {
    const Rbm values = *verify::arbitrary_rbm(n_visible, n_hidden, 1.0);
    return BasicStatistics<float>{values.weights.cast<float>(), values.visible_bias.cast<float>(),
                                  values.hidden_bias.cast<float>()};
  };
  const BasicStatistics<float> positive = statistics();
  const BasicStatistics<float> negative = statistics();
  const double momentum = *rc::gen::element(0.0, 0.5);
  const double weight_decay = *rc::gen::element(0.0, 0.25);

  Rbm stored_parameters = start;
  Optimizer stored(momentum, weight_decay, n_visible, n_hidden);
  Rbm gradient;
  statistics_difference(positive, negative, gradient);
  for (int t = 0; t < 2; ++t) stored.step(stored_parameters, gradient, 0.1);

  Rbm fused_parameters = start;
  Optimizer fused(momentum, weight_decay, n_visible, n_hidden);
  BasicRbm<float> copy;
  double largest = 0.0;
  for (int t = 0; t < 2; ++t)
    largest = fused.step(fused_parameters, StatisticsGradient<float>{positive, negative}, 0.1, &copy);

  RC_ASSERT(fused_parameters.weights == stored_parameters.weights);
  RC_ASSERT(fused_parameters.visible_bias == stored_parameters.visible_bias);
  RC_ASSERT(fused_parameters.hidden_bias == stored_parameters.hidden_bias);
  RC_ASSERT(copy.weights == fused_parameters.weights.cast<float>());
  RC_ASSERT(copy.visible_bias == fused_parameters.visible_bias.cast<float>());
  RC_ASSERT(copy.hidden_bias == fused_parameters.hidden_bias.cast<float>());
  RC_ASSERT(largest == std::max({fused_parameters.weights.cwiseAbs().maxCoeff(),
                                 fused_parameters.visible_bias.cwiseAbs().maxCoeff(),
                                 fused_parameters.hidden_bias.cwiseAbs().maxCoeff()}));
}

// A NaN or an infinity anywhere in the parameters reaches the returned magnitude, whichever block it is in.
TEST(Optimizer, StepReportsNonFiniteParameters) {
  for (const double bad : {std::nan(""), std::numeric_limits<double>::infinity()}) {
    for (const Eigen::Index entry : {Eigen::Index{0}, Eigen::Index{2500}, Eigen::Index{4999}}) {
      Rbm parameters(100, 50);
      parameters.weights.data()[entry] = bad;
      Optimizer optimizer(0.0, 0.0, 100, 50);
      const double largest = optimizer.step(parameters, Rbm(100, 50), 0.1);
      EXPECT_FALSE(std::isfinite(largest)) << bad << " at " << entry;
      if (std::isnan(bad)) {
        EXPECT_TRUE(std::isnan(largest)) << entry;
      }
    }
    Rbm parameters(3, 2);
    parameters.hidden_bias[1] = bad;
    Optimizer optimizer(0.0, 0.0, 3, 2);
    EXPECT_FALSE(std::isfinite(optimizer.step(parameters, Rbm(3, 2), 0.1))) << bad << " in a bias";
  }
}

// A W large enough for the threaded pass (300 × 300 entries) gets the same step, copy and magnitude on one thread
// and on two.
TEST(Optimizer, StepDoesNotDependOnTheThreadCount) {
  const Rbm start = testing::random_rbm(300, 300, 1.0, 5);
  const Rbm gradient = testing::random_rbm(300, 300, 1.0, 6);
  const int threads = omp_get_max_threads();
  Rbm results[2];
  BasicRbm<float> copies[2];
  double largest[2];
  for (const int thread_count : {1, 2}) {
    omp_set_num_threads(thread_count);
    Optimizer optimizer(0.5, 0.25, 300, 300);
    results[thread_count - 1] = start;
    for (int t = 0; t < 2; ++t)
      largest[thread_count - 1] =
          optimizer.step(results[thread_count - 1], StoredGradient{gradient}, 0.1, &copies[thread_count - 1]);
  }
  omp_set_num_threads(threads);
  EXPECT_EQ(results[0].weights, results[1].weights);
  EXPECT_EQ(results[0].hidden_bias, results[1].hidden_bias);
  EXPECT_EQ(copies[0].weights, copies[1].weights);
  EXPECT_EQ(largest[0], largest[1]);
}

}  // namespace
}  // namespace rbmix
