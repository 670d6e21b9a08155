#include "rbmix/training/trajectory_log_partition.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <omp.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "rbmix/estimation/ais.hpp"
#include "rbmix/model/exact.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/training/binary_archive.hpp"
#include "rbmix/training/test_models.hpp"
#include "rbmix/verify/generators.hpp"
#include "support/input_error_message.hpp"
#include "support/rule_list.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;

// How far, in standard errors over the groups, the mean Ẑ may lie from the exact Z. The groups are independent and
// each Ẑ_g is unbiased, so (mean − Z)/se follows Student's t with groups − 1 = 39 degrees of freedom where the Ẑ_g
// are near normal (tiny models: they spread by a few per cent): P(|t₃₉| > 6) = 5e-7 per check, so the property's
// 100 cases × 2 checks fail falsely with probability about 1e-4.
constexpr double kStandardErrors = 6.0;
constexpr Eigen::Index kGroups = 40;

// (mean Ẑ − Z) / se, relative to the mean so that nothing overflows.
double standard_errors_from_exact(const TrackedLogPartition& tracked, double exact_log_partition) {
  return -std::expm1(exact_log_partition - tracked.log_partition) / tracked.relative_standard_error;
}

// A random walk of `steps` models from `first`: every parameter moves by U[−step, step] per model.
std::vector<Rbm> random_walk(const Rbm& first, int steps, double step, std::uint64_t seed) {
  std::vector<Rbm> models{first};
  RandomStream stream(seed, 0, StreamDomain::experiment);
  const auto move = [&](auto& parameters) {
    for (Eigen::Index k = 0; k < parameters.size(); ++k) parameters.data()[k] += step * (2.0 * stream.uniform() - 1.0);
  };
  for (int k = 0; k < steps; ++k) {
    Rbm next = models.back();
    move(next.weights);
    move(next.visible_bias);
    move(next.hidden_bias);
    models.push_back(next);
  }
  return models;
}

TrajectoryLogPartitionOptions small_options(const UnitRule& rule = GibbsRule{}) {
  TrajectoryLogPartitionOptions options;
  options.particles = 400;
  options.groups = kGroups;
  options.rule = rule;
  options.seed = 3;
  return options;
}

// Exact in expectation: along any sequence of tiny models, for every operator, resampling never, sometimes or at
// every step, with one or two sweeps, in float or double, the mean over independent groups of Ẑ_g is Z within its
// standard error (the start's bridge from W = 0 included).
RC_GTEST_PROP(TrajectoryLogPartition, IsExactInExpectationAlongAnySequenceOfTinyModels, ()) {
  const Rbm first = *verify::arbitrary_tiny_rbm(5, 1.5);
  const auto walk_seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  const std::vector<Rbm> models = random_walk(first, 30, 0.15, walk_seed);
  const std::vector<UnitRule> rules = testing::every_builtin_rule();
  TrajectoryLogPartitionOptions options =
      small_options(rules[*rc::gen::inRange<std::size_t>(0, rules.size())]);
  options.resampling_threshold = *rc::gen::element(0.0, 0.3, 1.0);
  options.sweeps_per_update = *rc::gen::inRange(1, 3);
  options.single_precision = *rc::gen::arbitrary<bool>();
  options.seed = walk_seed + 1;

  TrajectoryLogPartition tracked(models.front(), options);
  const TrackedLogPartition at_start = tracked.estimate();
  RC_ASSERT(std::abs(standard_errors_from_exact(at_start, exact_log_partition(models.front()))) < kStandardErrors);
  for (std::size_t k = 1; k < models.size(); ++k) tracked.advance(models[k]);
  const TrackedLogPartition at_end = tracked.estimate();
  RC_ASSERT(std::abs(standard_errors_from_exact(at_end, exact_log_partition(models.back()))) < kStandardErrors);
  if (options.resampling_threshold == 0.0) RC_ASSERT(at_end.resamplings == 0);
}

// A model without couplings starts exact: its log Z is closed-form and its particles exact draws, so the estimate
// equals log Z to rounding and every weight is equal.
TEST(TrajectoryLogPartition, StartsExactlyAtAModelWithoutCouplings) {
  Rbm independent(7, 4);
  independent.visible_bias << -1.0, 0.5, 2.0, 0.0, -3.0, 1.0, 0.25;
  independent.hidden_bias << 0.5, -0.5, 1.5, 0.0;
  const TrajectoryLogPartition tracked(independent, small_options());
  const TrackedLogPartition estimate = tracked.estimate();
  EXPECT_NEAR(estimate.log_partition, exact_log_partition(independent), 1e-12);
  EXPECT_NEAR(estimate.upper, estimate.log_partition, 1e-12);
  EXPECT_DOUBLE_EQ(estimate.smallest_effective_sample_size, 10.0);
}

// The sign and the bookkeeping: models that differ only in the visible bias have exactly known Z ratios, and the
// estimate follows them through steps that force a resampling at every step.
TEST(TrajectoryLogPartition, FollowsExactlyKnownRatiosThroughResamplingAtEveryStep) {
  Rbm model(6, 3);
  TrajectoryLogPartitionOptions options = small_options();
  options.resampling_threshold = 1.0;
  TrajectoryLogPartition tracked(model, options);
  for (int step = 1; step <= 20; ++step) {
    model.visible_bias.array() += 0.1;
    model.hidden_bias[step % 3] -= 0.2;
    tracked.advance(model);
  }
  const TrackedLogPartition estimate = tracked.estimate();
  EXPECT_GT(estimate.resamplings, 0);
  // W = 0 throughout, so every move is an exact draw and the steps' errors are independent: a step's log-weights
  // spread by 0.1 √(6/4) ≈ 0.12, its log mean over 400 particles by 0.006, twenty steps by about 0.03. log Z itself
  // moves by more than 6 nats, which a wrong sign or a lost banked mean misses by far more than 0.2 (7 sd).
  EXPECT_NEAR(estimate.log_partition, exact_log_partition(model), 0.2);
}

// The numbers do not depend on the thread team: the particles draw from their own streams and the products sum in a
// fixed order. At 784 × 40 the layers are large enough for the sampler to split them over threads.
TEST(TrajectoryLogPartition, ThreadCountChangesNoNumber) {
  const std::vector<Rbm> models = random_walk(Rbm(784, 40), 5, 0.01, 9);
  TrajectoryLogPartitionOptions options = small_options();
  options.particles = 80;
  options.groups = 8;
  options.resampling_threshold = 0.9;
  std::vector<TrackedLogPartition> estimates;
  const int threads = omp_get_max_threads();
  for (const int team : {1, 2}) {
    omp_set_num_threads(team);
    TrajectoryLogPartition tracked(models.front(), options);
    for (std::size_t k = 1; k < models.size(); ++k) tracked.advance(models[k]);
    estimates.push_back(tracked.estimate());
  }
  omp_set_num_threads(threads);
  EXPECT_EQ(estimates[0].log_partition, estimates[1].log_partition);
  EXPECT_EQ(estimates[0].upper, estimates[1].upper);
  EXPECT_EQ(estimates[0].resamplings, estimates[1].resamplings);
}

// A saved state continues bit for bit, and a state of other options is refused naming them.
TEST(TrajectoryLogPartition, SavedStateContinuesBitForBitAndOtherOptionsAreRefused) {
  const std::vector<Rbm> models = random_walk(testing::random_rbm(5, 4, 1.0, 8), 10, 0.2, 4);
  TrajectoryLogPartitionOptions options = small_options();
  options.resampling_threshold = 0.9;
  TrajectoryLogPartition uninterrupted(models.front(), options);
  TrajectoryLogPartition first_half(models.front(), options);
  for (std::size_t k = 1; k <= 5; ++k) {
    uninterrupted.advance(models[k]);
    first_half.advance(models[k]);
  }
  BinaryWriter writer;
  first_half.save(writer);
  TrajectoryLogPartition resumed(models.front(), options);
  BinaryReader reader(writer.bytes(), "state");
  resumed.load(reader);
  EXPECT_TRUE(reader.at_end());
  for (std::size_t k = 6; k < models.size(); ++k) {
    uninterrupted.advance(models[k]);
    resumed.advance(models[k]);
  }
  EXPECT_EQ(resumed.estimate().log_partition, uninterrupted.estimate().log_partition);
  EXPECT_EQ(resumed.estimate().lower, uninterrupted.estimate().lower);

  options.sweeps_per_update = 2;
  TrajectoryLogPartition other(models.front(), options);
  BinaryReader again(writer.bytes(), "state");
  EXPECT_THAT(testing::input_error_message([&] { other.load(again); }),
              HasSubstr("\"sweeps_per_update\":1"));
}

// A tracked state of 4 groups whose log Ẑ_g are `group_log_partitions` (their banked means, every weight 1): a saved
// state of Rbm(3, 2) with those two records replaced, so that estimate() is read on constructed groups.
TrajectoryLogPartition tracked_with_groups(const VectorD& group_log_partitions) {
  TrajectoryLogPartitionOptions options;
  options.particles = 8;
  options.groups = 4;
  const Rbm model(3, 2);
  BinaryWriter saved;
  TrajectoryLogPartition(model, options).save(saved);
  BinaryReader reader(saved.bytes(), "state");
  BinaryWriter constructed;
  constructed.write_string(reader.read_string());
  constructed.write_matrix(reader.read_state_matrix<double>(8, 3, "visible"));
  constructed.write_matrix(reader.read_state_matrix<double>(8, 2, "hidden"));
  constructed.write_streams(reader.read_streams(8, "particle streams"));
  constructed.write_streams(reader.read_streams(4, "resampling streams"));
  reader.read_vector<double>(8, "log-weights");
  constructed.write_vector(VectorD(VectorD::Zero(8)));
  reader.read_vector<double>(4, "banked");
  constructed.write_vector(group_log_partitions);
  constructed.write_vector(reader.read_vector<double>(8, "log marginals"));
  constructed.write_i64(reader.read_i64());
  TrajectoryLogPartition tracked(model, options);
  BinaryReader constructed_reader(constructed.bytes(), "constructed state");
  tracked.load(constructed_reader);
  return tracked;
}

// The band is the union of the mean's band (log_mean_with_band, ais.hpp) and the lognormal one, m + s²/2 ± 3 ·
// sqrt(s²/G + s⁴/(2(G − 1))) of the groups' log Ẑ_g (docs/algorithms/log-partition-along-training.md §11.3), on
// groups built by hand. Spread far apart (log Ẑ_g = 0, 1, 2, 3: m = 1.5, s² = 5/3), the mean's upper end lies
// below the lognormal one, which the band takes; close together (0, 0.1, 0.2, 0.3: s² = 1/60), the mean's lower end
// lies below the lognormal one, which the band leaves.
TEST(TrajectoryLogPartition, BandIsTheUnionOfTheMeansBandAndTheLognormalOne) {
  VectorD spread(4);
  spread << 0.0, 1.0, 2.0, 3.0;
  const TrackedLogPartition far_apart = tracked_with_groups(spread).estimate();
  EXPECT_NEAR(far_apart.log_partition, log_mean_with_band(spread).log_mean, 1e-12);
  EXPECT_EQ(far_apart.lower, -std::numeric_limits<double>::infinity());
  EXPECT_NEAR(far_apart.upper, 1.5 + 5.0 / 6.0 + 3.0 * std::sqrt(5.0 / 12.0 + 25.0 / 54.0), 1e-12);
  EXPECT_GT(far_apart.upper, log_mean_with_band(spread).upper + 2.0);

  VectorD close(4);
  close << 0.0, 0.1, 0.2, 0.3;
  const TrackedLogPartition close_together = tracked_with_groups(close).estimate();
  const double variance = 1.0 / 60.0;
  const double lognormal_half_width = 3.0 * std::sqrt(variance / 4.0 + variance * variance / 6.0);
  EXPECT_NEAR(close_together.lower, log_mean_with_band(close).lower, 1e-12);
  EXPECT_LT(close_together.lower, 0.15 + variance / 2.0 - lognormal_half_width);
  EXPECT_NEAR(close_together.upper, 0.15 + variance / 2.0 + lognormal_half_width, 1e-12);
}

TEST(TrajectoryLogPartitionOptions, RefusesWhatCannotRunSayingWhy) {
  const auto refusal = [](const TrajectoryLogPartitionOptions& options) {
    std::string why;
    EXPECT_FALSE(options.is_valid(&why));
    return why;
  };
  TrajectoryLogPartitionOptions options;
  EXPECT_TRUE(options.is_valid(nullptr));
  options.groups = 0;
  EXPECT_THAT(refusal(options), HasSubstr("at least 1 particle group"));
  options = {};
  options.particles = 105;
  EXPECT_THAT(refusal(options), HasSubstr("multiple of the 10 groups"));
  options.particles = 5;
  EXPECT_THAT(refusal(options), HasSubstr("multiple of the 10 groups"));
  options = {};
  options.resampling_threshold = 1.5;
  EXPECT_THAT(refusal(options), HasSubstr("threshold must lie in [0, 1]"));
  options.resampling_threshold = std::nan("");
  EXPECT_THAT(refusal(options), HasSubstr("threshold must lie in [0, 1]"));
  options = {};
  options.sweeps_per_update = 0;
  EXPECT_THAT(refusal(options), HasSubstr("at least 1 sweep per update"));
  EXPECT_THROW(TrajectoryLogPartition(Rbm(3, 2), options), InputError);
}

TEST(TrajectoryLogPartition, RefusesAModelOfAnotherShapeOrWithNaN) {
  TrajectoryLogPartition tracked(Rbm(4, 3), small_options());
  EXPECT_THAT(testing::input_error_message([&] { tracked.advance(Rbm(4, 2)); }),
              HasSubstr("the particles follow a 4 x 3 model"));
  Rbm broken(4, 3);
  broken.weights(1, 1) = std::nan("");
  EXPECT_THROW(tracked.advance(broken), InputError);
}

}  // namespace
}  // namespace rbmix
