#include "rbmix/model/classification_rbm.hpp"

#include <algorithm>

#include "rbmix/core/entry_checks.hpp"
#include "rbmix/core/error.hpp"

namespace rbmix {

void ClassificationRbm::validate(const std::string& what) const {
  rbm.validate(what);
  require(classes >= 2, what + ": a softmax label group needs at least 2 classes, not " + std::to_string(classes));
  require(rbm.n_visible() > classes, what + ": " + std::to_string(rbm.n_visible()) +
                                         " visible units leave no input before the " + std::to_string(classes) +
                                         " label units");
}

MatrixD class_free_energies(const ClassificationRbm& model, const MatrixD& inputs) {
  model.validate();
  const Eigen::Index n_inputs = model.n_inputs();
  require(inputs.cols() == n_inputs, "class_free_energies: the inputs have " + std::to_string(inputs.cols()) +
                                         " columns, the model " + std::to_string(n_inputs) + " inputs");
  const Rbm& rbm = model.rbm;
  // c + W_x x once; each class adds its own column of W (the one-hot unit's weights).
  MatrixD input_fields = inputs * rbm.weights.leftCols(n_inputs).transpose();
  input_fields.rowwise() += rbm.hidden_bias.transpose();
  const VectorD input_bias_terms = inputs * rbm.visible_bias.head(n_inputs);
  MatrixD energies(inputs.rows(), model.classes);
  for (Eigen::Index label = 0; label < model.classes; ++label) {
    const Eigen::Index unit = n_inputs + label;
    const MatrixD fields = input_fields.rowwise() + rbm.weights.col(unit).transpose();
    energies.col(label) =
        -(input_bias_terms.array() + rbm.visible_bias[unit] + softplus_array(fields.array()).rowwise().sum()).matrix();
  }
  return energies;
}

MatrixD class_probabilities(const ClassificationRbm& model, const MatrixD& inputs) {
  MatrixD negative = -class_free_energies(model, inputs);
  // Softmax with the row maximum subtracted, so that large free energies neither overflow nor underflow.
  const VectorD largest = negative.rowwise().maxCoeff();
  negative.colwise() -= largest;
  MatrixD probabilities = negative.array().exp().matrix();
  const VectorD sums = probabilities.rowwise().sum();
  return (probabilities.array().colwise() / sums.array()).matrix();
}

std::vector<int> predict_labels(const ClassificationRbm& model, const MatrixD& inputs) {
  const MatrixD energies = class_free_energies(model, inputs);
  std::vector<int> labels(static_cast<std::size_t>(inputs.rows()));
  for (Eigen::Index row = 0; row < energies.rows(); ++row) {
    Eigen::Index best = 0;
    energies.row(row).minCoeff(&best);
    labels[static_cast<std::size_t>(row)] = static_cast<int>(best);
  }
  return labels;
}

void require_labels_in_classes(const std::vector<int>& labels, Eigen::Index classes, const std::string& what) {
  for (std::size_t row = 0; row < labels.size(); ++row)
    require(labels[row] >= 0 && labels[row] < classes, what + ": label " + std::to_string(labels[row]) + " in row " +
                                                           std::to_string(row) + " lies outside 0 … " +
                                                           std::to_string(classes - 1));
}

double classification_error(const ClassificationRbm& model, const MatrixD& inputs, const std::vector<int>& labels) {
  require(static_cast<Eigen::Index>(labels.size()) == inputs.rows(),
          "classification_error: " + std::to_string(labels.size()) + " labels for " + std::to_string(inputs.rows()) +
              " inputs");
  require(inputs.rows() > 0, "classification_error: no inputs");
  require_labels_in_classes(labels, model.classes, "classification_error");
  const std::vector<int> predicted = predict_labels(model, inputs);
  std::size_t wrong = 0;
  for (std::size_t row = 0; row < labels.size(); ++row) wrong += predicted[row] != labels[row] ? 1 : 0;
  return static_cast<double>(wrong) / static_cast<double>(labels.size());
}

MatrixD append_one_hot_labels(const MatrixD& inputs, const std::vector<int>& labels, Eigen::Index classes,
                              const std::string& what) {
  require(static_cast<Eigen::Index>(labels.size()) == inputs.rows(),
          what + ": " + std::to_string(labels.size()) + " labels for " + std::to_string(inputs.rows()) + " rows");
  MatrixD rows = MatrixD::Zero(inputs.rows(), inputs.cols() + classes);
  rows.leftCols(inputs.cols()) = inputs;
  require_labels_in_classes(labels, classes, what);
  for (Eigen::Index row = 0; row < inputs.rows(); ++row)
    rows(row, inputs.cols() + labels[static_cast<std::size_t>(row)]) = 1.0;
  return rows;
}

std::vector<int> one_hot_labels(const MatrixD& rows, Eigen::Index classes, const std::string& what) {
  require(classes >= 1 && rows.cols() > classes, what + ": " + std::to_string(rows.cols()) +
                                                     " columns cannot hold inputs and " + std::to_string(classes) +
                                                     " label units");
  const Eigen::Index first = rows.cols() - classes;
  std::vector<int> labels(static_cast<std::size_t>(rows.rows()));
  for (Eigen::Index row = 0; row < rows.rows(); ++row) {
    const auto block = rows.row(row).tail(classes);
    const bool one_hot = all_binary(block) && block.sum() == 1.0;
    require(one_hot, what + ": row " + std::to_string(row) + " does not hold exactly one label (columns " +
                         std::to_string(first) + " … " + std::to_string(rows.cols() - 1) + " must be one-hot)");
    Eigen::Index label = 0;
    block.maxCoeff(&label);
    labels[static_cast<std::size_t>(row)] = static_cast<int>(label);
  }
  return labels;
}

}  // namespace rbmix
