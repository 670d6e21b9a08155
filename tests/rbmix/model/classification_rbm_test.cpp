#include "rbmix/model/classification_rbm.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "rbmix/core/error.hpp"
#include "support/brute_force.hpp"

namespace rbmix {
namespace {

constexpr double kTolerance = 1e-10;

// A classification RBM with 4 inputs, 3 classes and 3 hidden units, parameters uniform in [−2, 2] from a fixed seed.
ClassificationRbm tiny_classifier(unsigned seed) {
  std::srand(seed);
  ClassificationRbm model{Rbm(4 + 3, 3), 3};
  model.rbm.weights = 2.0 * MatrixD::Random(3, 7);
  model.rbm.visible_bias = 2.0 * VectorD::Random(7);
  model.rbm.hidden_bias = 2.0 * VectorD::Random(3);
  return model;
}

// F(x, y) = −log Σ_h e^{−E([x; e_y], h)} by brute force over the hidden states, independent of the library's formula.
long double brute_force_free_energy(const ClassificationRbm& model, const Eigen::RowVectorXd& inputs, int label) {
  Eigen::RowVectorXd visible = Eigen::RowVectorXd::Zero(model.rbm.n_visible());
  visible.head(model.n_inputs()) = inputs;
  visible(model.n_inputs() + label) = 1.0;
  long double sum = 0.0L;
  const auto hidden_states = std::uint64_t{1} << model.rbm.n_hidden();
  for (std::uint64_t h = 0; h < hidden_states; ++h)
    sum += std::exp(-testing::brute_force_energy(model.rbm, visible, testing::bits_of(h, model.rbm.n_hidden())));
  return -std::log(sum);
}

MatrixD all_inputs(Eigen::Index n_inputs) {
  MatrixD inputs(Eigen::Index{1} << n_inputs, n_inputs);
  for (Eigen::Index x = 0; x < inputs.rows(); ++x)
    inputs.row(x) = testing::bits_of(static_cast<std::uint64_t>(x), n_inputs);
  return inputs;
}

TEST(ClassificationRbm, FreeEnergiesMatchBruteForce) {
  const ClassificationRbm model = tiny_classifier(3);
  const MatrixD inputs = all_inputs(model.n_inputs());
  const MatrixD energies = class_free_energies(model, inputs);
  for (Eigen::Index x = 0; x < inputs.rows(); ++x)
    for (int y = 0; y < 3; ++y)
      EXPECT_NEAR(energies(x, y), static_cast<double>(brute_force_free_energy(model, inputs.row(x), y)), kTolerance);
}

TEST(ClassificationRbm, PredictsTheArgminOfExactlyComputedFreeEnergies) {
  for (const unsigned seed : {1U, 2U, 3U, 4U}) {
    const ClassificationRbm model = tiny_classifier(seed);
    const MatrixD inputs = all_inputs(model.n_inputs());
    const std::vector<int> predicted = predict_labels(model, inputs);
    for (Eigen::Index x = 0; x < inputs.rows(); ++x) {
      int best = 0;
      long double lowest = brute_force_free_energy(model, inputs.row(x), 0);
      for (int y = 1; y < 3; ++y) {
        const long double energy = brute_force_free_energy(model, inputs.row(x), y);
        if (energy < lowest) {
          lowest = energy;
          best = y;
        }
      }
      EXPECT_EQ(predicted[static_cast<std::size_t>(x)], best) << "seed " << seed << ", input " << x;
    }
  }
}

TEST(ClassificationRbm, ClassProbabilitiesAreTheExactConditional) {
  const ClassificationRbm model = tiny_classifier(5);
  const MatrixD inputs = all_inputs(model.n_inputs());
  const MatrixD probabilities = class_probabilities(model, inputs);
  for (Eigen::Index x = 0; x < inputs.rows(); ++x) {
    long double normaliser = 0.0L;
    for (int y = 0; y < 3; ++y) normaliser += std::exp(-brute_force_free_energy(model, inputs.row(x), y));
    for (int y = 0; y < 3; ++y)
      EXPECT_NEAR(probabilities(x, y),
                  static_cast<double>(std::exp(-brute_force_free_energy(model, inputs.row(x), y)) / normaliser),
                  kTolerance);
  }
}

TEST(ClassificationRbm, ErrorCountsTheMissedLabels) {
  const ClassificationRbm model = tiny_classifier(7);
  const MatrixD inputs = all_inputs(model.n_inputs());
  std::vector<int> labels = predict_labels(model, inputs);
  EXPECT_EQ(classification_error(model, inputs, labels), 0.0);
  labels[0] = (labels[0] + 1) % 3;
  labels[5] = (labels[5] + 2) % 3;
  EXPECT_DOUBLE_EQ(classification_error(model, inputs, labels), 2.0 / 16.0);
}

// A label the model has no class for is refused by the error as by the one-hot encoding, naming the row.
TEST(ClassificationRbm, ErrorRefusesALabelOutsideTheClasses) {
  const ClassificationRbm model = tiny_classifier(7);
  const MatrixD inputs = all_inputs(model.n_inputs());
  std::vector<int> labels = predict_labels(model, inputs);
  labels[4] = 200;
  try {
    classification_error(model, inputs, labels);
    FAIL() << "no exception";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("label 200 in row 4"), std::string::npos) << error.what();
  }
  labels[4] = -1;
  EXPECT_THROW(classification_error(model, inputs, labels), InputError);
}

// Free energies near ±1000: e^{∓F} over- or underflows double, so the softmax must subtract each row's largest −F
// (docs/algorithms/pcd-study.md §9.1). With −F = (1000, 1001, 999) or (−1000, −999, −1001) alike, p = softmax(0, 1,
// −1).
TEST(ClassificationRbm, ClassProbabilitiesStayFiniteForFreeEnergiesNearAThousand) {
  const double e = std::exp(1.0), total = 1.0 + e + 1.0 / e;
  const Eigen::RowVector3d expected(1.0 / total, e / total, 1.0 / e / total);
  for (const double level : {1000.0, -1000.0}) {
    // Zero weights and hidden biases: F(x, y) = −b·x − b_y − n_hidden·log 2, so −F differs between classes by b_y.
    ClassificationRbm model{Rbm(2 + 3, 2), 3};
    model.rbm.visible_bias.tail(3) << level, level + 1.0, level - 1.0;
    const MatrixD probabilities = class_probabilities(model, all_inputs(2));
    ASSERT_TRUE(probabilities.allFinite()) << level << ":\n" << probabilities;
    for (Eigen::Index row = 0; row < probabilities.rows(); ++row) {
      EXPECT_NEAR(probabilities.row(row).sum(), 1.0, 1e-15) << level;
      EXPECT_NEAR((probabilities.row(row) - expected).cwiseAbs().maxCoeff(), 0.0, 1e-15) << level;
    }
  }
}

TEST(ClassificationRbm, OneHotLabelsRoundTrip) {
  const MatrixD inputs = all_inputs(2);
  const std::vector<int> labels = {2, 0, 1, 2};
  const MatrixD rows = append_one_hot_labels(inputs, labels, 3);
  ASSERT_EQ(rows.cols(), 5);
  EXPECT_EQ(rows.leftCols(2), inputs);
  EXPECT_EQ(rows.row(0).tail(3), Eigen::RowVector3d(0, 0, 1));
  EXPECT_EQ(one_hot_labels(rows, 3, "rows"), labels);
}

TEST(ClassificationRbm, RefusesBadLabelsAndModels) {
  const MatrixD inputs = all_inputs(2);
  EXPECT_THROW(append_one_hot_labels(inputs, {0, 1, 3, 0}, 3), InputError);
  EXPECT_THROW(append_one_hot_labels(inputs, {0, 1}, 3), InputError);
  MatrixD rows = append_one_hot_labels(inputs, {0, 1, 2, 0}, 3);
  rows(1, 2) = 1.0;  // two labels in row 1
  EXPECT_THROW(one_hot_labels(rows, 3, "rows"), InputError);
  EXPECT_THROW((ClassificationRbm{Rbm(3, 2), 1}.validate()), InputError);
  EXPECT_THROW((ClassificationRbm{Rbm(3, 2), 3}.validate()), InputError);
  const ClassificationRbm model = tiny_classifier(1);
  EXPECT_THROW(class_free_energies(model, all_inputs(3)), InputError);
}

}  // namespace
}  // namespace rbmix
