#include "rbmix/estimation/log_partition_difference.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "rbmix/core/error.hpp"
#include "rbmix/model/exact.hpp"
#include "rbmix/model/random_rbm.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/verify/generators.hpp"
#include "support/input_error_message.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;

// How far, in its own standard errors, an estimate from exact independent samples may lie from the exact Δ log Z:
// both estimators are asymptotically normal, and P(|z| > 5.5) = 4e-8, so the property's 100 cases × 2 estimators
// fail falsely with probability below 1e-5. (A wrong sign of u or a missing log(n_0/n_1) moves the estimate by the
// whole Δ, many standard errors at these sample sizes.)
constexpr double kStandardErrors = 5.5;
constexpr Eigen::Index kSamples = 2000;

// Every visible state of `units` units, state k's unit j = bit j of k.
MatrixD all_visible_states(Eigen::Index units) {
  MatrixD states(Eigen::Index{1} << units, units);
  for (Eigen::Index k = 0; k < states.rows(); ++k)
    for (Eigen::Index j = 0; j < units; ++j) states(k, j) = static_cast<double>((k >> j) & 1);
  return states;
}

// `count` exact independent draws of v from p(v), by inverting the cumulative distribution over all states.
MatrixD exact_samples(const Rbm& rbm, Eigen::Index count, std::uint64_t seed) {
  const MatrixD states = all_visible_states(rbm.n_visible());
  const VectorD probabilities = exact_log_probability(rbm, states, exact_log_partition(rbm)).array().exp();
  MatrixD samples(count, rbm.n_visible());
  RandomStream stream(seed, 0, StreamDomain::experiment);
  for (Eigen::Index row = 0; row < count; ++row) {
    double remaining = stream.uniform();
    Eigen::Index state = 0;
    while (state + 1 < states.rows() && remaining >= probabilities[state]) remaining -= probabilities[state++];
    samples.row(row) = states.row(state);
  }
  return samples;
}

// Two models a step apart, as consecutive saved models of a training run are.
Rbm nearby(const Rbm& model, double step, std::uint64_t seed) {
  Rbm next = model;
  RandomStream stream(seed, 1, StreamDomain::experiment);
  for (Eigen::Index k = 0; k < next.weights.size(); ++k) next.weights.data()[k] += step * (2.0 * stream.uniform() - 1.0);
  for (Eigen::Index k = 0; k < next.visible_bias.size(); ++k) next.visible_bias[k] += step * (2.0 * stream.uniform() - 1.0);
  for (Eigen::Index k = 0; k < next.hidden_bias.size(); ++k) next.hidden_bias[k] += step * (2.0 * stream.uniform() - 1.0);
  return next;
}

RC_GTEST_PROP(LogPartitionDifference, BothEstimatorsAgreeWithTheExactDifferenceFromExactSamples, ()) {
  const Rbm first = *verify::arbitrary_tiny_rbm(6, 1.5);
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  const Rbm second = nearby(first, 0.5, seed);
  const double exact = exact_log_partition(second) - exact_log_partition(first);
  const MatrixD of_first = exact_samples(first, kSamples, seed + 1);
  const MatrixD of_second = exact_samples(second, kSamples / 2, seed + 2);
  const LogPartitionDifference perturbation = free_energy_perturbation(first, second, of_first);
  RC_ASSERT(std::abs(perturbation.value - exact) < kStandardErrors * perturbation.standard_error + 1e-12);
  const LogPartitionDifference bennett = bennett_acceptance_ratio(first, second, of_first, of_second);
  RC_ASSERT(std::abs(bennett.value - exact) < kStandardErrors * bennett.standard_error + 1e-12);
}

// Bennett's estimate uses both sides: with the roles of the models swapped it is the same Δ negated, to the
// bisection's tolerance.
TEST(LogPartitionDifference, BennettIsAntisymmetricInTheTwoModels) {
  const Rbm first = uniform_random_rbm(5, 3, 1.0, 1.0, 7);
  const Rbm second = nearby(first, 0.8, 3);
  const MatrixD of_first = exact_samples(first, 500, 4);
  const MatrixD of_second = exact_samples(second, 300, 5);
  const LogPartitionDifference forward = bennett_acceptance_ratio(first, second, of_first, of_second);
  const LogPartitionDifference backward = bennett_acceptance_ratio(second, first, of_second, of_first);
  EXPECT_NEAR(forward.value, -backward.value, 1e-9);
  EXPECT_NEAR(forward.standard_error, backward.standard_error, 1e-9);
}

// The same model twice: u = 0 for every sample, so both estimates are exactly 0 with no spread.
TEST(LogPartitionDifference, IsZeroBetweenAModelAndItself) {
  const Rbm model = uniform_random_rbm(4, 3, 1.0, 1.0, 3);
  const MatrixD samples = exact_samples(model, 50, 1);
  EXPECT_EQ(free_energy_perturbation(model, model, samples).value, 0.0);
  EXPECT_NEAR(bennett_acceptance_ratio(model, model, samples, samples).value, 0.0, 1e-9);
}

// log Σ over the distinct rows of e^{−F} never exceeds log Z, equals it when the rows are every state (each once,
// however often repeated), and an estimate below it is refused with both numbers.
TEST(LogPartitionDifference, TheDistinctRowsBoundLogZAndRefuseAnEstimateBelowThem) {
  const Rbm model = uniform_random_rbm(5, 4, 2.0, 1.0, 11);
  const double log_partition = exact_log_partition(model);
  const MatrixD every_state = all_visible_states(model.n_visible());
  MatrixD twice(2 * every_state.rows(), every_state.cols());
  twice << every_state, every_state;
  EXPECT_NEAR(distinct_rows_log_partition_bound(model, twice), log_partition, 1e-12);
  EXPECT_LE(distinct_rows_log_partition_bound(model, exact_samples(model, 10, 2)), log_partition);
  EXPECT_NO_THROW(refuse_log_partition_below_rows(log_partition, model, twice, "estimate"));
  EXPECT_THAT(testing::input_error_message(
                  [&] { refuse_log_partition_below_rows(log_partition - 0.1, model, twice, "AIS of model 3"); }),
              HasSubstr("AIS of model 3: the estimate log Z"));
}

TEST(LogPartitionDifference, RefusesMismatchedInput) {
  const Rbm model(4, 2);
  const MatrixD samples = MatrixD::Zero(5, 4);
  EXPECT_THAT(testing::input_error_message([&] { free_energy_perturbation(model, Rbm(4, 3), samples); }),
              HasSubstr("differ in shape"));
  EXPECT_THAT(testing::input_error_message([&] { free_energy_perturbation(model, model, MatrixD::Zero(5, 3)); }),
              HasSubstr("3 columns"));
  EXPECT_THAT(testing::input_error_message([&] { free_energy_perturbation(model, model, MatrixD::Zero(1, 4)); }),
              HasSubstr("at least 2 samples"));
  EXPECT_THAT(testing::input_error_message(
                  [&] { bennett_acceptance_ratio(model, model, samples, MatrixD::Constant(3, 4, 0.5)); }),
              HasSubstr("0 or 1"));
}

}  // namespace
}  // namespace rbmix
