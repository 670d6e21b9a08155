#include "rbmix/training/trainer.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <utility>

#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/io/file_bytes.hpp"
#include "rbmix/io/output_file.hpp"
#include "rbmix/model/classification_rbm.hpp"
#include "rbmix/model/exact.hpp"
#include "support/scoped_environment_variable.hpp"
#include "support/test_names.hpp"

namespace rbmix {
namespace {

MatrixD bars_and_stripes_3() { return to_real(bars_and_stripes(3)); }

std::filesystem::path temporary_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("rbmix_trainer_test_" + std::to_string(::getpid()) + "_" + name);
}

TrainingOptions small_options(Algorithm algorithm, const char* rule = "gibbs") {
  TrainingOptions options;
  apply_algorithm(options, algorithm, 3);
  options.rule = parse_unit_rule(rule);
  options.sampling_steps = 2;
  options.replicas = 3;
  options.learning_rate = 0.1;
  options.batch_size = 6;
  options.updates = 60;
  options.evaluation_interval = 20;
  options.seed = 7;
  if (algorithm == Algorithm::fpcd) options.fast_learning_rate = 0.5;
  return options;
}

void expect_identical(const Rbm& a, const Rbm& b) {
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_EQ(a.visible_bias, b.visible_bias);
  EXPECT_EQ(a.hidden_bias, b.hidden_bias);
}

// S-DCP with d = 1 is CD-K' (002 §3) and CS-DCP with d = 1 is CG: S-DCP's own loop of inner steps, run once, gives
// the numbers of the plain update bit for bit (a loop that ran d + 1 steps, or restarted the negative phase or
// recomputed the positive phase per inner step, would not).
TEST(Trainer, SdcpWithOneInnerStepIsCdBitForBit) {
  for (const char* rule : {"gibbs", "flip"}) {
    for (auto [dcp, plain] : {std::pair{Algorithm::sdcp, Algorithm::cd}, std::pair{Algorithm::csdcp, Algorithm::cg}}) {
      TrainingOptions dcp_options = small_options(dcp, rule);
      dcp_options.inner_steps = 1;
      const TrainingOptions plain_options = small_options(plain, rule);
      ASSERT_TRUE(dcp_options.difference_of_convex);
      ASSERT_FALSE(plain_options.difference_of_convex);
      Trainer dcp_trainer(dcp_options, bars_and_stripes_3(), {}, 4);
      Trainer plain_trainer(plain_options, bars_and_stripes_3(), {}, 4);
      dcp_trainer.run();
      plain_trainer.run();
      expect_identical(dcp_trainer.model(), plain_trainer.model());
    }
  }
}

// A warm start continues from the given model: 60 updates from a trained model equal 60 more updates of its run
// where the run's state is only its parameters (CD: no persistent chains, no momentum), for plain and centered
// parameters; a model of another shape, or a start after the first update, is refused.
TEST(Trainer, WarmStartContinuesFromTheGivenModel) {
  for (const Algorithm algorithm : {Algorithm::cd, Algorithm::cg}) {
    Trainer cold(small_options(algorithm), bars_and_stripes_3(), {}, 4);
    cold.run();
    TrainingOptions tiny_rate = small_options(algorithm);
    tiny_rate.learning_rate = 1e-300;  // every update leaves the parameters as they are
    Trainer warm(tiny_rate, bars_and_stripes_3(), {}, 4);
    warm.start_from(cold.model());
    warm.run();
    const Rbm continued = warm.model();
    EXPECT_LT((continued.weights - cold.model().weights).cwiseAbs().maxCoeff(), 1e-12) << to_string(algorithm);
    EXPECT_LT((continued.visible_bias - cold.model().visible_bias).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_THROW(warm.start_from(cold.model()), InputError);  // after updates
  }
  Trainer fresh(small_options(Algorithm::cd), bars_and_stripes_3(), {}, 4);
  EXPECT_THROW(fresh.start_from(Rbm(9, 5)), InputError);
  Rbm broken(9, 4);
  broken.weights(0, 0) = std::nan("");
  EXPECT_THROW(fresh.start_from(broken), InputError);
}

// With d = 3 the inner steps do change the trajectory.
TEST(Trainer, SdcpWithSeveralInnerStepsDiffersFromCd) {
  Trainer dcp(small_options(Algorithm::sdcp), bars_and_stripes_3(), {}, 4);
  Trainer cd(small_options(Algorithm::cd), bars_and_stripes_3(), {}, 4);
  dcp.run();
  cd.run();
  EXPECT_GT((dcp.model().weights - cd.model().weights).cwiseAbs().maxCoeff(), 0.0);
}

// Exact-gradient full-batch training of 16 hidden units on BAS 3×3 gets within 0.1 nats of the best possible
// average log-likelihood, −(entropy of the data) = −2.599 (docs/algorithms/data-and-figures.md §7).
TEST(Trainer, ExactGradientReachesTheBestLikelihoodOnBarsAndStripes) {
  const BinaryMatrix data = bars_and_stripes(3);
  EXPECT_NEAR(best_average_log_likelihood(data), -2.599, 5e-4);
  TrainingOptions options;
  apply_algorithm(options, Algorithm::exact);
  options.learning_rate = 0.1;
  options.momentum = 0.9;
  options.updates = 1500;
  options.evaluation_interval = 1500;
  Trainer trainer(options, to_real(data), {}, 16);
  const TrainingSummary summary = trainer.run();
  ASSERT_EQ(summary.termination, Termination::completed);
  ASSERT_TRUE(summary.final && summary.final->train_log_likelihood);
  EXPECT_GT(*summary.final->train_log_likelihood, best_average_log_likelihood(data) - 0.1);
}

// The learning curve starts at update 0, follows the interval and ends at the last update; the test likelihood is
// the exact one.
TEST(Trainer, EvaluatesOnScheduleWithExactLikelihoods) {
  const MatrixD train = bars_and_stripes_3();
  Trainer trainer(small_options(Algorithm::pcd, "flip"), train, train.topRows(5), 4);
  const TrainingSummary summary = trainer.run();
  ASSERT_EQ(summary.learning_curve.size(), 4u);
  EXPECT_EQ(summary.learning_curve[0].update, 0);
  EXPECT_EQ(summary.learning_curve[3].update, 60);
  EXPECT_DOUBLE_EQ(summary.learning_curve[3].epoch, 30.0);  // ⌊16/6⌋ = 2 batches per epoch
  const Rbm rbm = trainer.model();
  const double log_partition = exact_log_partition(rbm);
  EXPECT_DOUBLE_EQ(*summary.final->test_log_likelihood,
                   exact_average_log_likelihood(rbm, train.topRows(5), log_partition));
  EXPECT_EQ(summary.updates_done, 60);
}

class ResumedRun : public ::testing::TestWithParam<std::pair<Algorithm, const char*>> {};

// A run interrupted at update 30 (checkpoint written) and resumed in a fresh trainer ends bit-identical to an
// uninterrupted run: parameters, offsets, chains, streams, data order and learning curve are all in the checkpoint.
TEST_P(ResumedRun, EndsBitIdenticalToAnUninterruptedRun) {
  const auto [algorithm, rule] = GetParam();
  TrainingOptions options = small_options(algorithm, rule);
  options.momentum = 0.5;
  options.schedule = LearningRateSchedule::linear_decay;
  options.checkpoint_path = temporary_path("resume_" + to_string(algorithm) + ".ckpt").string();
  const MatrixD train = bars_and_stripes_3();

  Trainer uninterrupted(options, train, {}, 4);
  const TrainingSummary expected = uninterrupted.run();

  Trainer first(options, train, {}, 4);
  TrainingHooks hooks;
  hooks.interrupt_requested = [&first] { return first.updates_done() == 30; };
  const TrainingSummary interrupted = first.run(hooks);
  ASSERT_EQ(interrupted.termination, Termination::interrupted);
  EXPECT_EQ(interrupted.updates_done, 30);

  Trainer resumed(options, train, {}, 4);
  resumed.load_checkpoint(options.checkpoint_path);
  EXPECT_EQ(resumed.updates_done(), 30);
  const TrainingSummary finished = resumed.run();
  EXPECT_EQ(finished.termination, Termination::completed);
  expect_identical(resumed.model(), uninterrupted.model());
  ASSERT_EQ(finished.learning_curve.size(), expected.learning_curve.size());
  for (std::size_t k = 0; k < expected.learning_curve.size(); ++k)
    EXPECT_EQ(finished.learning_curve[k].train_log_likelihood, expected.learning_curve[k].train_log_likelihood);
  std::filesystem::remove(options.checkpoint_path);
}

INSTANTIATE_TEST_SUITE_P(EveryStatefulAlgorithm, ResumedRun,
                         ::testing::Values(std::pair{Algorithm::cd, "flip"}, std::pair{Algorithm::pcd, "flip"},
                                           std::pair{Algorithm::fpcd, "gibbs"}, std::pair{Algorithm::pt, "mix:0.5"},
                                           std::pair{Algorithm::csdcp, "gibbs"}),
                         [](const auto& info) {
                           return testing::test_name(to_string(info.param.first) + "_" + info.param.second);
                         });

TEST(Trainer, FloatSamplingResumesBitIdenticallyToo) {
  TrainingOptions options = small_options(Algorithm::pcd, "flip");
  options.sample_in_float = true;
  options.checkpoint_path = temporary_path("float.ckpt").string();
  options.checkpoint_interval = 20;
  Trainer uninterrupted(options, bars_and_stripes_3(), {}, 4);
  uninterrupted.run();
  Trainer resumed(options, bars_and_stripes_3(), {}, 4);
  options.updates = 40;
  Trainer partial(options, bars_and_stripes_3(), {}, 4);
  partial.run();  // leaves the checkpoint of update 40
  resumed.load_checkpoint(options.checkpoint_path);
  resumed.run();
  expect_identical(resumed.model(), uninterrupted.model());
  std::filesystem::remove(options.checkpoint_path);
}

// The same seed trains the same bits whatever the thread team: with 60 % ones in the data most layer inputs take
// the dense product (below the binary path's thresholds only where the ones are few), whose sums Eigen's own
// threading split by the team's size (model/dense_product.hpp). PCD samples, MF-CD's mean-field inputs are dense
// by nature; both in double and in float, at the MNIST shape, where one and two threads differed before.
TEST(Trainer, TheSameSeedTrainsTheSameBitsWhateverTheTeam) {
  std::mt19937 engine(11);
  std::bernoulli_distribution one(0.6);
  MatrixD data(200, 784);
  for (Eigen::Index k = 0; k < data.size(); ++k) data.data()[k] = one(engine) ? 1.0 : 0.0;
  const int threads = omp_get_max_threads();
  // OMP_NUM_THREADS set: the trainer's tuner keeps each team as set, as it does for a user who chose the count.
  const testing::ScopedEnvironmentVariable team_as_set("OMP_NUM_THREADS", "2");
  for (const Algorithm algorithm : {Algorithm::pcd, Algorithm::mfcd})
    for (const bool in_float : {false, true}) {
      TrainingOptions options;
      apply_algorithm(options, algorithm, 1);
      options.learning_rate = 0.05;
      options.batch_size = 100;
      options.updates = 3;
      options.evaluation_interval = 0;
      options.seed = 5;
      options.sample_in_float = in_float;
      Rbm models[2];
      for (const int team : {1, 2}) {
        omp_set_num_threads(team);
        Trainer trainer(options, data, {}, 500);
        trainer.run();
        models[team - 1] = trainer.model();
      }
      omp_set_num_threads(threads);
      SCOPED_TRACE(to_string(algorithm) + (in_float ? " in float" : " in double"));
      expect_identical(models[0], models[1]);
    }
}

// With --float the whole update runs in float while the optimizer keeps the parameters in double. MF-CD and the
// exact phase draw nothing, so a float run follows the double run up to float rounding: each update's gradient is
// off by a few float ulps of the statistics (≤ 1), about 1e-6, and 200 updates at η = 0.1 move a parameter by at
// most 200 · 0.1 · 1e-6 = 2e-5 from that alone; the bound 5e-5 leaves room for the rounding to feed back through the
// model. The runs must also differ at all, or the float path was not taken.
TEST(Trainer, FloatUpdateFollowsTheDoubleUpdateToFloatRounding) {
  // MF-CD, the exact phase, and MF-CD in the centered form (which writes its gradient out).
  for (const auto& [algorithm, centered] :
       {std::pair{Algorithm::mfcd, false}, std::pair{Algorithm::exact, false}, std::pair{Algorithm::mfcd, true}}) {
    TrainingOptions options = small_options(algorithm);
    options.centered = centered;
    options.updates = 200;
    options.evaluation_interval = 0;
    Trainer in_double(options, bars_and_stripes_3(), {}, 4);
    in_double.run();
    options.sample_in_float = true;
    Trainer in_float(options, bars_and_stripes_3(), {}, 4);
    in_float.run();
    const Rbm a = in_double.model();
    const Rbm b = in_float.model();
    const double difference = std::max({(a.weights - b.weights).cwiseAbs().maxCoeff(),
                                        (a.visible_bias - b.visible_bias).cwiseAbs().maxCoeff(),
                                        (a.hidden_bias - b.hidden_bias).cwiseAbs().maxCoeff()});
    const std::string run = to_string(algorithm) + (centered ? ", centered" : "");
    EXPECT_LT(difference, 5e-5) << run;
    EXPECT_GT(difference, 0.0) << run;
  }
}

// A parameter passing the divergence bound stops the run with the reason, keeps the last good parameters and leaves
// the last checkpoint intact and loadable. (Learning BAS needs weights of several units, so a bound of 3 is passed
// after some updates; a huge learning rate instead diverges at the first update, before any checkpoint.)
TEST(Trainer, DivergingRunStopsWithAMessageAndAnIntactCheckpoint) {
  TrainingOptions options = small_options(Algorithm::cd);
  options.learning_rate = 0.5;
  options.divergence_bound = 3.0;
  options.updates = 1000;
  options.checkpoint_interval = 1;
  options.checkpoint_path = temporary_path("diverge.ckpt").string();
  std::filesystem::remove(options.checkpoint_path);
  Trainer trainer(options, bars_and_stripes_3(), {}, 4);
  const TrainingSummary summary = trainer.run();
  ASSERT_EQ(summary.termination, Termination::diverged);
  EXPECT_NE(summary.message.find("diverged"), std::string::npos);
  EXPECT_NE(summary.message.find("intact"), std::string::npos);
  EXPECT_LT(summary.updates_done, 1000);
  const Rbm kept = trainer.model();
  EXPECT_TRUE(kept.weights.allFinite());
  EXPECT_LE(kept.weights.cwiseAbs().maxCoeff(), options.divergence_bound);
  ASSERT_GT(summary.updates_done, 1);
  Trainer reloaded(options, bars_and_stripes_3(), {}, 4);
  EXPECT_NO_THROW(reloaded.load_checkpoint(options.checkpoint_path));
  EXPECT_EQ(reloaded.updates_done(), summary.updates_done - 1);
  expect_identical(reloaded.model(), kept);
  std::filesystem::remove(options.checkpoint_path);

  // A huge learning rate diverges at once: the message says so and mentions no checkpoint.
  options.learning_rate = 1e6;
  Trainer immediate(options, bars_and_stripes_3(), {}, 4);
  const TrainingSummary at_once = immediate.run();
  EXPECT_EQ(at_once.termination, Termination::diverged);
  EXPECT_EQ(at_once.message.find("intact"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(options.checkpoint_path));
}

TEST(Trainer, RejectsDamagedOrForeignCheckpoints) {
  TrainingOptions options = small_options(Algorithm::pcd);
  options.checkpoint_path = temporary_path("damaged.ckpt").string();
  Trainer trainer(options, bars_and_stripes_3(), {}, 4);
  trainer.run();
  const std::string bytes = read_file_bytes(options.checkpoint_path);

  write_output_file(options.checkpoint_path, bytes.substr(0, bytes.size() / 2));
  Trainer truncated(options, bars_and_stripes_3(), {}, 4);
  EXPECT_THROW(truncated.load_checkpoint(options.checkpoint_path), InputError);

  write_output_file(options.checkpoint_path, bytes);
  TrainingOptions other = options;
  other.learning_rate = 0.2;
  Trainer foreign(other, bars_and_stripes_3(), {}, 4);
  EXPECT_THROW(foreign.load_checkpoint(options.checkpoint_path), InputError);
  Trainer wider(options, bars_and_stripes_3(), {}, 5);
  EXPECT_THROW(wider.load_checkpoint(options.checkpoint_path), InputError);
  std::filesystem::remove(options.checkpoint_path);
  EXPECT_THROW(truncated.load_checkpoint(options.checkpoint_path), InputError);
}

TEST(Trainer, RejectsBadData) {
  MatrixD data = bars_and_stripes_3();
  data(0, 0) = 0.5;
  EXPECT_THROW(Trainer(small_options(Algorithm::cd), data, {}, 4), InputError);
  EXPECT_THROW(Trainer(small_options(Algorithm::cd), bars_and_stripes_3(), MatrixD::Zero(2, 4), 4), InputError);
  TrainingOptions big_batch = small_options(Algorithm::cd);
  big_batch.batch_size = 100;
  EXPECT_THROW(Trainer(big_batch, bars_and_stripes_3(), {}, 4), InputError);
}

TEST(TrainingOptions, ValidateThemselvesWithAReason) {
  TrainingOptions options;
  std::string why;
  EXPECT_TRUE(options.is_valid(&why));
  options.learning_rate = -1.0;
  EXPECT_FALSE(options.is_valid(&why));
  EXPECT_NE(why.find("learning rate"), std::string::npos);
  options = TrainingOptions{};
  apply_algorithm(options, Algorithm::pt);
  options.replicas = 1;
  EXPECT_FALSE(options.is_valid(&why));
  options = TrainingOptions{};
  options.checkpoint_interval = 10;
  EXPECT_FALSE(options.is_valid(&why));
  EXPECT_THROW(parse_algorithm("cdk"), InputError);
  EXPECT_EQ(parse_algorithm("csdcp"), Algorithm::csdcp);
}

// A classification RBM (000 §4.2) on Artificial Modes (4 classes, 16 pixels, 5 % of the pixels flipped: the mode at
// smallest Hamming distance is almost always the label) trained generatively on (image, label) rows.
constexpr int kModeClasses = 4;
constexpr double kModeMutation = 0.05;
// The Bayes error of these data is below 0.1 %; a classifier that learnt the modes misses few test rows.
constexpr double kLowClassificationError = 0.05;

MatrixD labelled_modes(int rows, std::uint64_t seed) {
  const LabelledData data = artificial_modes(kModeMutation, rows, seed);
  return append_one_hot_labels(to_real(data.samples), data.labels, kModeClasses);
}

TrainingOptions classification_options(Algorithm algorithm, const char* rule) {
  TrainingOptions options;
  apply_algorithm(options, algorithm);
  options.rule = parse_unit_rule(rule);
  options.label_classes = kModeClasses;
  options.learning_rate = 0.05;
  options.batch_size = 20;
  options.updates = 1500;
  options.evaluation_interval = 500;
  options.seed = 11;
  return options;
}

class ClassificationTraining : public ::testing::TestWithParam<std::tuple<Algorithm, int, const char*>> {};

TEST_P(ClassificationTraining, ReachesALowTestErrorOnArtificialModes) {
  const auto [algorithm, sweeps, rule] = GetParam();
  TrainingOptions options = classification_options(algorithm, rule);
  options.sampling_steps = sweeps;
  Trainer trainer(options, labelled_modes(400, 1), labelled_modes(400, 2), 16);
  const TrainingSummary summary = trainer.run();
  ASSERT_EQ(summary.termination, Termination::completed);
  ASSERT_TRUE(summary.final && summary.final->test_error && summary.final->train_error);
  EXPECT_FALSE(summary.final->test_log_likelihood);            // a joint likelihood over binary labels would be wrong
  EXPECT_GT(*summary.learning_curve.front().test_error, 0.5);  // the untrained model guesses
  EXPECT_LT(*summary.final->test_error, kLowClassificationError);
  // The error the trainer reports is the model's own.
  const MatrixD test = labelled_modes(400, 2);
  EXPECT_EQ(*summary.final->test_error,
            classification_error(ClassificationRbm{trainer.model(), kModeClasses}, test.leftCols(16),
                                 one_hot_labels(test, kModeClasses, "test")));
}

INSTANTIATE_TEST_SUITE_P(
    CdPcdMfcdWithGibbsAndFlip, ClassificationTraining,
    ::testing::Values(std::tuple{Algorithm::cd, 1, "gibbs"}, std::tuple{Algorithm::cd, 10, "gibbs"},
                      std::tuple{Algorithm::mfcd, 1, "gibbs"}, std::tuple{Algorithm::pcd, 1, "gibbs"},
                      std::tuple{Algorithm::pcd, 1, "flip"}, std::tuple{Algorithm::cd, 1, "flip"}),
    [](const auto& info) {
      return testing::test_name(to_string(std::get<0>(info.param)) + std::to_string(std::get<1>(info.param)) + "_" +
                                std::get<2>(info.param));
    });

TEST(Trainer, ClassificationRunResumesBitIdenticallyWithItsErrors) {
  TrainingOptions options = classification_options(Algorithm::pcd, "flip");
  options.updates = 60;
  options.evaluation_interval = 20;
  options.checkpoint_interval = 20;
  options.checkpoint_path = temporary_path("classification.ckpt").string();
  const MatrixD train = labelled_modes(100, 3);
  const MatrixD test = labelled_modes(100, 4);
  Trainer uninterrupted(options, train, test, 8);
  const TrainingSummary expected = uninterrupted.run();
  options.updates = 40;
  Trainer partial(options, train, test, 8);
  partial.run();  // leaves the checkpoint of update 40
  options.updates = 60;
  Trainer resumed(options, train, test, 8);
  resumed.load_checkpoint(options.checkpoint_path);
  const TrainingSummary finished = resumed.run();
  expect_identical(resumed.model(), uninterrupted.model());
  ASSERT_EQ(finished.learning_curve.size(), expected.learning_curve.size());
  for (std::size_t k = 0; k < expected.learning_curve.size(); ++k) {
    EXPECT_EQ(finished.learning_curve[k].train_error, expected.learning_curve[k].train_error);
    EXPECT_EQ(finished.learning_curve[k].test_error, expected.learning_curve[k].test_error);
    EXPECT_TRUE(finished.learning_curve[k].test_error.has_value());
  }
  std::filesystem::remove(options.checkpoint_path);
}

TEST(Trainer, RefusesLabelBlocksThatAreNotOneHotAndTheExactPhaseForThem) {
  MatrixD train = labelled_modes(40, 5);
  train(3, 16) = 1.0 - train(3, 16);
  const TrainingOptions options = classification_options(Algorithm::cd, "gibbs");
  EXPECT_THROW(Trainer(options, train, {}, 4), InputError);
  TrainingOptions exact = classification_options(Algorithm::exact, "gibbs");
  EXPECT_THROW(Trainer(exact, labelled_modes(40, 5), {}, 4), InputError);
}

// Resampled binarisation (000 §4.1): on rows that are already 0/1 every draw is certain, so the run is the plain
// run bit for bit; on grey levels it draws afresh, the same for the same seed.
TEST(Trainer, ResampledBinarisationOfBinaryRowsIsThePlainRun) {
  TrainingOptions options = small_options(Algorithm::pcd, "flip");
  Trainer plain(options, bars_and_stripes_3(), {}, 4);
  plain.run();
  options.resample_binarisation = true;
  Trainer resampled(options, bars_and_stripes_3(), {}, 4);
  resampled.run();
  expect_identical(plain.model(), resampled.model());
}

TEST(Trainer, ResampledBinarisationIsFixedByTheSeedAndRefusesValuesOutsideTheUnitInterval) {
  TrainingOptions options = small_options(Algorithm::cd);
  options.resample_binarisation = true;
  const MatrixD grey = 0.25 + 0.5 * bars_and_stripes_3().array();
  Trainer first(options, grey, {}, 4);
  first.run();
  Trainer second(options, grey, {}, 4);
  second.run();
  expect_identical(first.model(), second.model());
  Trainer fixed(small_options(Algorithm::cd), bars_and_stripes_3(), {}, 4);
  fixed.run();
  EXPECT_NE(first.model().weights, fixed.model().weights);
  MatrixD outside = grey;
  outside(0, 0) = 1.5;
  EXPECT_THROW(Trainer(options, outside, {}, 4), InputError);
}

}  // namespace
}  // namespace rbmix
