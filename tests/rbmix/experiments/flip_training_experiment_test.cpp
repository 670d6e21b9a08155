#include "rbmix/experiments/flip_training_experiment.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "rbmix/core/error.hpp"
#include "support/idx_writer.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix::experiments {
namespace {

FlipTrainingOptions tiny_config() {
  FlipTrainingOptions config = flip_training_options(Scale::smoke, 5);
  config.trials = 2;
  config.updates = 100;
  config.evaluation_interval = 50;
  return config;
}

// The smoke scale runs every setting for G and T and reports one row per setting. 100 updates do not yet leave the
// saddle at W ≈ 0 (learning takes thousands on BAS 4×4), so the likelihoods stay near the uniform model's
// −16 ln 2; a slightly worse value is possible, a much worse one would be a bug.
TEST(FlipTraining, SmokeScaleProducesOneRowPerSettingWithSaneFigures) {
  const FlipTrainingOptions config = tiny_config();
  const FlipTrainingResult result = run_flip_training(config).value();
  ASSERT_EQ(result.rows.size(), config.settings.size());
  ASSERT_EQ(result.runs.size(), config.settings.size() * 2 * 2);
  EXPECT_EQ(result.evaluation_updates, (std::vector<std::int64_t>{0, 50, 100}));
  for (const auto& run : result.runs) {
    ASSERT_EQ(run.learning_curve.size(), 3u);
    EXPECT_GT(run.maximum_log_likelihood, -16.0 * std::log(2.0) - 0.01);
    EXPECT_LT(run.maximum_log_likelihood, 0.0);
    EXPECT_GE(run.maximum_log_likelihood, run.learning_curve.front());
  }
  for (const auto& row : result.rows) {
    EXPECT_GE(row.p_value, 0.0);
    EXPECT_LE(row.p_value, 1.0);
  }
}

// G and T start from the same weights in the same trial (paired design): the first evaluation agrees.
TEST(FlipTraining, OperatorsArePairedByTrial) {
  const FlipTrainingResult result = run_flip_training(tiny_config(), JobRunner(1)).value();
  for (const auto& gibbs : result.runs) {
    for (const auto& flip : result.runs) {
      if (!gibbs.flip && flip.flip && gibbs.setting == flip.setting && gibbs.trial == flip.trial) {
        EXPECT_EQ(gibbs.learning_curve.front(), flip.learning_curve.front());
      }
    }
  }
}

TEST(FlipTraining, ResultsDoNotDependOnTheThreadCount) {
  const FlipTrainingResult one = run_flip_training(tiny_config(), JobRunner(1)).value();
  const FlipTrainingResult two = run_flip_training(tiny_config(), JobRunner(2)).value();
  ASSERT_EQ(one.runs.size(), two.runs.size());
  for (std::size_t k = 0; k < one.runs.size(); ++k) EXPECT_EQ(one.runs[k].learning_curve, two.runs[k].learning_curve);
}

// BAS and MNIST run as one grid of jobs: each data set's result is the one it has when run alone.
TEST(FlipTraining, DataSetsRunTogetherGiveTheirResultsAlone) {
  FlipTrainingOptions first = tiny_config(), second = tiny_config();
  first.settings.resize(2);
  second.settings.resize(1);
  second.data = second.data.topRows(10);
  second.updates = 50;
  const std::vector<FlipTrainingResult> together =
      run_flip_training(std::vector<FlipTrainingOptions>{first, second}).value();
  ASSERT_EQ(together.size(), 2u);
  for (const auto& [alone, joint] : {std::pair{run_flip_training(first).value(), together[0]},
                                     std::pair{run_flip_training(second).value(), together[1]}}) {
    ASSERT_EQ(alone.runs.size(), joint.runs.size());
    EXPECT_EQ(alone.evaluation_updates, joint.evaluation_updates);
    for (std::size_t k = 0; k < alone.runs.size(); ++k)
      EXPECT_EQ(alone.runs[k].learning_curve, joint.runs[k].learning_curve);
    ASSERT_EQ(alone.rows.size(), joint.rows.size());
    for (std::size_t k = 0; k < alone.rows.size(); ++k) EXPECT_EQ(alone.rows[k].p_value, joint.rows[k].p_value);
  }
}

// Evaluation rows given explicitly: the same rows as the training data reproduce the default curve exactly (the
// same exact computation); other rows give another curve.
TEST(FlipTraining, LearningCurveIsEvaluatedOnTheEvaluationRows) {
  FlipTrainingOptions config = tiny_config();
  config.settings.resize(1);
  const FlipTrainingResult on_training_data = run_flip_training(config).value();
  config.evaluation_data = config.data;
  const FlipTrainingResult on_same_rows = run_flip_training(config).value();
  config.evaluation_data = config.data.topRows(2);
  const FlipTrainingResult on_two_rows = run_flip_training(config).value();
  for (std::size_t k = 0; k < on_training_data.runs.size(); ++k) {
    EXPECT_EQ(on_same_rows.runs[k].learning_curve, on_training_data.runs[k].learning_curve);
    EXPECT_NE(on_two_rows.runs[k].learning_curve.back(), on_training_data.runs[k].learning_curve.back());
  }
}

// A fake MNIST training set of `count` 5×5 images: pixel p of image i is bright (intensity 200 > 255/2) where
// lit(i, p), else dim (intensity 40 < 255/2), so the threshold binarisation gives lit(i, p).
void write_fake_mnist(const std::filesystem::path& directory, std::uint32_t count,
                      const std::function<bool(std::uint32_t image, std::uint32_t pixel)>& lit) {
  std::string pixels, labels;
  for (std::uint32_t image = 0; image < count; ++image) {
    for (std::uint32_t pixel = 0; pixel < 25; ++pixel) pixels += static_cast<char>(lit(image, pixel) ? 200 : 40);
    labels += static_cast<char>(image % 10);
  }
  testing::write_plain(directory / "train-images-idx3-ubyte", testing::idx_bytes({count, 5, 5}, pixels));
  testing::write_plain(directory / "train-labels-idx1-ubyte", testing::idx_bytes({count}, labels));
}

// Image i is the horizontal bar at row i mod 5.
bool bar(std::uint32_t image, std::uint32_t pixel) { return pixel / 5 == image % 5; }

// Image i spells i in binary, so that every image is distinct.
bool binary_code(std::uint32_t image, std::uint32_t pixel) { return ((image >> pixel) & 1U) != 0; }

// The MNIST branch runs the same core on the thresholded images with 10 hidden units and mini-batches of 100. The
// fake set holds 5 equally frequent bars, so the exact average LL is at most ln(1/5) (the data's own entropy bound)
// and starts near the uniform model's −25 ln 2.
TEST(FlipTraining, MnistSmokeScaleRunsOnThresholdedImages) {
  const testing::TemporaryDirectory directory;
  write_fake_mnist(directory.path(), 600, bar);
  FlipTrainingOptions config = flip_training_mnist_options(Scale::smoke, 5, directory.path());
  EXPECT_EQ(config.data.rows(), mnist_smoke_rows);
  EXPECT_EQ(config.data.cols(), 25);
  EXPECT_EQ(config.hidden, 10);
  EXPECT_EQ(config.batch_size, 100);
  EXPECT_EQ(config.updates, mnist_smoke_updates);
  EXPECT_EQ(config.evaluation_data.rows(), 0);  // 500 rows ≤ 5000: evaluated on all of them
  EXPECT_EQ(config.data.row(7).sum(), 5);
  EXPECT_EQ(config.data(7, 10), 1);  // image 7 lights row 2: pixels 10..14
  EXPECT_EQ(config.data(7, 0), 0);
  config.trials = 2;
  config.updates = 100;
  config.evaluation_interval = 50;
  const FlipTrainingResult result = run_flip_training(config, JobRunner(2)).value();
  ASSERT_EQ(result.rows.size(), config.settings.size());
  ASSERT_EQ(result.runs.size(), config.settings.size() * 2 * 2);
  const double entropy_bound = -std::log(5.0);
  for (const auto& run : result.runs) {
    ASSERT_EQ(run.learning_curve.size(), 3u);
    EXPECT_GT(run.learning_curve.front(), -25.0 * std::log(2.0) - 1.0);
    EXPECT_LE(run.maximum_log_likelihood, entropy_bound);
    EXPECT_GT(run.maximum_log_likelihood, run.learning_curve.front());  // 100 updates on 5 bars do learn
  }
}

// Paper scale trains on every image and evaluates on mnist_evaluation_rows of them, distinct, drawn with the seed.
TEST(FlipTraining, MnistPaperScaleEvaluatesOnASeededSubsetOfDistinctRows) {
  const testing::TemporaryDirectory directory;
  const std::uint32_t count = 6000;
  write_fake_mnist(directory.path(), count, binary_code);
  const FlipTrainingOptions config = flip_training_mnist_options(Scale::paper, 5, directory.path());
  EXPECT_EQ(config.data.rows(), count);
  ASSERT_EQ(config.evaluation_data.rows(), mnist_evaluation_rows);
  auto image_of = [&](Eigen::Index row) {
    std::uint32_t image = 0;
    for (Eigen::Index pixel = 0; pixel < 25; ++pixel)
      image |= static_cast<std::uint32_t>(config.evaluation_data(row, pixel)) << pixel;
    return image;
  };
  for (Eigen::Index row = 1; row < mnist_evaluation_rows; ++row) EXPECT_LT(image_of(row - 1), image_of(row));
  EXPECT_LT(image_of(mnist_evaluation_rows - 1), count);
  EXPECT_EQ(flip_training_mnist_options(Scale::paper, 5, directory.path()).evaluation_data, config.evaluation_data);
  EXPECT_NE(flip_training_mnist_options(Scale::paper, 6, directory.path()).evaluation_data, config.evaluation_data);
}

TEST(FlipTraining, MnistConfigRejectsASetSmallerThanAMiniBatchAtPaperScale) {
  const testing::TemporaryDirectory directory;
  write_fake_mnist(directory.path(), 50, bar);
  EXPECT_THROW(flip_training_mnist_options(Scale::paper, 5, directory.path()), InputError);
  // Smoke scale runs on any MNIST-style directory: the mini-batch shrinks to the 50 rows there are.
  EXPECT_EQ(flip_training_mnist_options(Scale::smoke, 5, directory.path()).batch_size, 50);
}

TEST(FlipTraining, MedianOfOddAndEvenCounts) {
  EXPECT_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
}

}  // namespace
}  // namespace rbmix::experiments
