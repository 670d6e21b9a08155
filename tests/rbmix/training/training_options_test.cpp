#include "rbmix/training/training_options.hpp"

#include <gtest/gtest.h>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

bool valid(const TrainingOptions& options) { return options.is_valid(nullptr); }

std::string reason(const TrainingOptions& options) {
  std::string why;
  EXPECT_FALSE(options.is_valid(&why));
  return why;
}

TrainingOptions options_for(Algorithm algorithm, int inner_steps = 1) {
  TrainingOptions options;
  apply_algorithm(options, algorithm, inner_steps);
  if (algorithm == Algorithm::fpcd) options.fast_learning_rate = 0.1;
  return options;
}

// The defaults are the one set every front end uses (the CLI binds to these fields): CD-1 with Gibbs sampling,
// η = 0.01, full batch, 1000 updates, evaluated every 100, t = 10 replicas, α = 0.95 (001 §2), no ε_F.
TEST(TrainingOptions, DefaultsAreCdOneAndValid) {
  const TrainingOptions options;
  EXPECT_TRUE(valid(options));
  EXPECT_EQ(options.negative_phase, NegativePhaseKind::contrastive_divergence);
  EXPECT_TRUE(std::holds_alternative<GibbsRule>(options.rule));
  EXPECT_EQ(options.sampling_steps, 1);
  EXPECT_EQ(options.replicas, 10);
  EXPECT_EQ(options.inner_steps, 1);
  EXPECT_FALSE(options.difference_of_convex);
  EXPECT_FALSE(options.centered);
  EXPECT_EQ(options.learning_rate, 0.01);
  EXPECT_EQ(options.batch_size, 0);
  EXPECT_EQ(options.updates, 1000);
  EXPECT_EQ(options.evaluation_interval, 100);
  EXPECT_FALSE(options.fast_learning_rate.has_value());
  EXPECT_EQ(options.fast_weight_decay, 0.95);
  EXPECT_EQ(options.seed, 1u);
}

TEST(TrainingOptions, PresetsSetTheThreeChoices) {
  const TrainingOptions cg = options_for(Algorithm::cg);
  EXPECT_EQ(cg.negative_phase, NegativePhaseKind::contrastive_divergence);
  EXPECT_TRUE(cg.centered);
  EXPECT_FALSE(cg.difference_of_convex);
  const TrainingOptions csdcp = options_for(Algorithm::csdcp, 3);
  EXPECT_TRUE(csdcp.centered);
  EXPECT_TRUE(csdcp.difference_of_convex);
  EXPECT_EQ(csdcp.inner_steps, 3);
  // d is S-DCP's alone: another preset keeps d = 1 whatever is passed.
  EXPECT_EQ(options_for(Algorithm::pcd, 3).inner_steps, 1);
  EXPECT_EQ(options_for(Algorithm::pt).negative_phase, NegativePhaseKind::parallel_tempering);
  EXPECT_EQ(options_for(Algorithm::mfcd).negative_phase, NegativePhaseKind::mean_field);
  for (const Algorithm algorithm : {Algorithm::cd, Algorithm::pcd, Algorithm::mfcd, Algorithm::fpcd, Algorithm::pt,
                                    Algorithm::exact, Algorithm::cg, Algorithm::sdcp, Algorithm::csdcp}) {
    EXPECT_EQ(parse_algorithm(to_string(algorithm)), algorithm);
    EXPECT_TRUE(valid(options_for(algorithm, 2))) << to_string(algorithm);
  }
  EXPECT_THROW(parse_algorithm("sdpc"), InputError);
}

TEST(TrainingOptions, OutOfRangeValuesAreNamed) {
  const auto changed = [](auto change) {
    TrainingOptions options;
    change(options);
    return reason(options);
  };
  EXPECT_NE(changed([](TrainingOptions& o) { o.sampling_steps = 0; }).find("sampling steps"), std::string::npos);
  EXPECT_NE(changed([](TrainingOptions& o) { o.learning_rate = 0.0; }).find("learning rate"), std::string::npos);
  EXPECT_NE(changed([](TrainingOptions& o) { o.momentum = 1.0; }).find("momentum"), std::string::npos);
  EXPECT_NE(changed([](TrainingOptions& o) { o.batch_size = -1; }).find("batch size"), std::string::npos);
  EXPECT_NE(changed([](TrainingOptions& o) { o.fast_weight_decay = 1.0; }).find("decay"), std::string::npos);
  EXPECT_NE(changed([](TrainingOptions& o) { o.checkpoint_interval = 5; }).find("checkpoint path"), std::string::npos);
  TrainingOptions tempering = options_for(Algorithm::pt);
  tempering.replicas = 1;
  EXPECT_NE(reason(tempering).find("replicas"), std::string::npos);
  TrainingOptions invalid;
  invalid.updates = -1;
  EXPECT_THROW(invalid.validate(), InputError);
}

// What an algorithm would ignore is refused rather than dropped silently.
TEST(TrainingOptions, RefusesWhatTheAlgorithmWouldIgnore) {
  for (const Algorithm algorithm : {Algorithm::exact, Algorithm::mfcd}) {
    TrainingOptions options = options_for(algorithm);
    options.rule = FlipTheStateRule{};
    EXPECT_NE(reason(options).find("would be ignored"), std::string::npos);
  }
  for (const Algorithm algorithm : {Algorithm::cd, Algorithm::pcd, Algorithm::cg, Algorithm::pt}) {
    TrainingOptions options = options_for(algorithm);
    options.inner_steps = 2;
    EXPECT_NE(reason(options).find("S-DCP and CS-DCP only"), std::string::npos) << to_string(algorithm);
  }
  TrainingOptions persistent_dcp = options_for(Algorithm::sdcp, 2);
  persistent_dcp.negative_phase = NegativePhaseKind::persistent;
  EXPECT_NE(reason(persistent_dcp).find("CD-K'"), std::string::npos);
}

// 001 takes ε_F larger than ε without a ratio: FPCD requires it, and it must be a rate.
TEST(TrainingOptions, FpcdRequiresItsFastLearningRate) {
  TrainingOptions options;
  apply_algorithm(options, Algorithm::fpcd);
  EXPECT_NE(reason(options).find("fast learning rate"), std::string::npos);
  options.fast_learning_rate = -0.1;
  EXPECT_NE(reason(options).find("fast learning rate"), std::string::npos);
  options.fast_learning_rate = 0.1;
  EXPECT_TRUE(valid(options));
  options.centered = true;
  EXPECT_NE(reason(options).find("centering"), std::string::npos);
}

TEST(TrainingOptions, LearningRateScheduleNamesRoundTrip) {
  for (const auto schedule : {LearningRateSchedule::constant, LearningRateSchedule::linear_decay})
    EXPECT_EQ(parse_learning_rate_schedule(to_string(schedule)), schedule);
  EXPECT_THROW(parse_learning_rate_schedule("cosine"), InputError);
}

// The fingerprint keeps what shapes the trajectory and drops what does not (how long, how often to evaluate).
TEST(TrainingOptions, FingerprintTracksOnlyTheTrajectory) {
  TrainingOptions options;
  const std::string fingerprint = trajectory_fingerprint(options);
  TrainingOptions longer = options;
  longer.updates = 5000;
  longer.evaluation_interval = 7;
  EXPECT_EQ(trajectory_fingerprint(longer), fingerprint);
  TrainingOptions decaying = longer;
  decaying.schedule = LearningRateSchedule::linear_decay;
  options.schedule = LearningRateSchedule::linear_decay;
  EXPECT_NE(trajectory_fingerprint(decaying), trajectory_fingerprint(options));  // the decay depends on updates
  TrainingOptions other_seed;
  other_seed.seed = 2;
  EXPECT_NE(trajectory_fingerprint(other_seed), fingerprint);
}

}  // namespace
}  // namespace rbmix
