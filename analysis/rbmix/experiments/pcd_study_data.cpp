#include "rbmix/experiments/pcd_study_data.hpp"

#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/data/mnist.hpp"
#include "rbmix/data/patches.hpp"
#include "rbmix/data/split.hpp"
#include "rbmix/jobs/trial_seed.hpp"

namespace rbmix::experiments {
namespace {

constexpr int mnist_classes = 10;
constexpr int mode_classes = 4;
constexpr double mode_mutation = 0.05;  // Artificial Modes of the smoke scale
// The data seeds are fixed offsets of the experiment seed's trial seeds, so they never coincide with a run's.
constexpr std::uint64_t data_seed_index = 1u << 20;

std::vector<int> to_ints(const std::vector<std::uint8_t>& labels) { return {labels.begin(), labels.end()}; }

}  // namespace

RbmData load_rbm_data(std::uint64_t experiment_seed, const std::filesystem::path& mnist, Eigen::Index training_rows,
                      Eigen::Index evaluation_rows) {
  RbmData data;
  const std::uint64_t seed = trial_seed(experiment_seed, data_seed_index);
  if (mnist.empty()) {
    const auto make = [&](Eigen::Index rows, std::uint64_t index, MatrixD& out, std::vector<int>& labels) {
      const LabelledData modes = artificial_modes(mode_mutation, static_cast<int>(rows), seed + index);
      out = to_real(modes.samples);
      labels = modes.labels;
    };
    make(training_rows, 0, data.train, data.train_labels);
    make(evaluation_rows, 1, data.validation, data.validation_labels);
    make(evaluation_rows, 2, data.test, data.test_labels);
    data.classes = mode_classes;
    return data;
  }
  const LabelledImages train = load_mnist(mnist, MnistPart::train);
  const LabelledImages test = load_mnist(mnist, MnistPart::test);
  const Eigen::Index available = train.images.pixels.rows() - evaluation_rows;
  require(training_rows <= available && evaluation_rows <= test.images.pixels.rows(),
          "pcd-study: MNIST has too few images for the requested training and evaluation rows");
  // 000 §4.1: the training images are binarised afresh whenever they are used; validation (the last training
  // images) and test are binarised once.
  data.grey = true;
  data.train = train.images.pixels.topRows(training_rows).cast<double>() / 255.0;
  data.train_labels = to_ints({train.labels.begin(), train.labels.begin() + training_rows});
  const Eigen::Index first_validation = train.images.pixels.rows() - evaluation_rows;
  data.validation =
      to_real(stochastic_binarize(train.images.pixels.middleRows(first_validation, evaluation_rows), seed));
  data.validation_labels = to_ints({train.labels.begin() + first_validation, train.labels.end()});
  data.test = to_real(stochastic_binarize(test.images.pixels.topRows(evaluation_rows), seed + 1));
  data.test_labels = to_ints({test.labels.begin(), test.labels.begin() + evaluation_rows});
  data.classes = mnist_classes;
  return data;
}

MrfData load_mrf_data(std::uint64_t experiment_seed, const std::filesystem::path& mnist, Eigen::Index patches,
                      Eigen::Index patch_side) {
  const std::uint64_t seed = trial_seed(experiment_seed, data_seed_index + 1);
  BinaryMatrix rows;
  if (mnist.empty()) {
    rows = artificial_modes(mode_mutation, static_cast<int>(patches), seed).samples;
  } else {
    LabelledImages all = load_mnist(mnist, MnistPart::train);
    const LabelledImages test = load_mnist(mnist, MnistPart::test);
    ByteMatrix pixels(all.images.pixels.rows() + test.images.pixels.rows(), all.images.pixels.cols());
    pixels << all.images.pixels, test.images.pixels;
    all.images.pixels = std::move(pixels);
    // 000 §4.1 takes every patch; a seeded sample of the positions of all 70 000 images keeps the size practical.
    rows = threshold_binarize(random_patches(all.images, patch_side, patches, seed));
  }
  const BinaryMatrix shuffled = select_rows(rows, shuffled_row_order(rows.rows(), seed + 1));
  const Eigen::Index train_rows = shuffled.rows() * 3 / 5;
  const Eigen::Index validation_rows = shuffled.rows() / 5;
  return {shuffled.topRows(train_rows), shuffled.middleRows(train_rows, validation_rows),
          shuffled.bottomRows(shuffled.rows() - train_rows - validation_rows)};
}

}  // namespace rbmix::experiments
