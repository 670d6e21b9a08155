// rbmix classify: predicts labels with a classification RBM (000 §4.2; docs/algorithms/pcd-study.md §9.1) trained by
// rbmix train --labels: argmax_y p(y | x), exact from the K free energies F(x, y). With --labels it prints the
// classification error; with --out FILE it writes the predicted labels (.npy, |u1, one per row).
#include <iostream>
#include <memory>
#include <string>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/io/npy.hpp"
#include "rbmix/model/classification_rbm.hpp"

namespace rbmix::cli::classify_command {
namespace {

struct ClassifyArguments {
  std::string model;
  std::string data;
  std::string labels;
  std::string out;
};

void run_classify(const ClassifyArguments& arguments) {
  const LoadedClassificationRbm loaded = load_classification_rbm(arguments.model);
  const ClassificationRbm& model = loaded.model;
  const MatrixD inputs = to_real(load_binary_matrix(arguments.data));
  require(inputs.cols() == model.n_inputs(), "--data " + arguments.data + ": rows have " +
                                                 std::to_string(inputs.cols()) + " values but the model takes " +
                                                 std::to_string(model.n_inputs()) + " inputs");
  require(inputs.rows() > 0, "--data " + arguments.data + ": holds no rows");
  // The true labels are checked before anything is written: a label the model has no class for is refused, as
  // train refuses it in --test-labels.
  std::vector<int> labels;
  if (!arguments.labels.empty()) {
    labels = load_labels(arguments.labels);
    require(static_cast<Eigen::Index>(labels.size()) == inputs.rows(),
            "--labels " + arguments.labels + ": " + std::to_string(labels.size()) + " labels for " +
                std::to_string(inputs.rows()) + " rows");
    require_labels_in_classes(labels, model.classes, "--labels " + arguments.labels);
  }
  const std::vector<int> predicted = predict_labels(model, inputs);
  if (!arguments.out.empty()) {
    require(model.classes <= 256, "--out: " + std::to_string(model.classes) + " classes do not fit in |u1 labels");
    Vector<std::uint8_t> labels(static_cast<Eigen::Index>(predicted.size()));
    for (std::size_t row = 0; row < predicted.size(); ++row)
      labels[static_cast<Eigen::Index>(row)] = static_cast<std::uint8_t>(predicted[row]);
    write_npy(arguments.out, vector_to_npy(labels));
    std::cout << "wrote " << arguments.out << " (" << predicted.size() << " labels)\n";
  }
  if (!arguments.labels.empty()) {
    std::size_t wrong = 0;
    for (std::size_t row = 0; row < labels.size(); ++row) wrong += labels[row] != predicted[row] ? 1 : 0;
    std::cout << "classification error: " << static_cast<double>(wrong) / static_cast<double>(labels.size()) << " ("
              << wrong << " of " << labels.size() << " rows)\n";
  }
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<ClassifyArguments>();
  CLI::App* command =
      parent.add_subcommand("classify", "Predict labels with a classification RBM (rbmix train --labels)");
  command->add_option("--model", arguments->model, "classification RBM (.npz from rbmix train --labels)")->required();
  command
      ->add_option("--data", arguments->data,
                   "inputs (.npy, .csv, .png or a directory of .png; one 0/1 row per sample)")
      ->required();
  command->add_option("--labels", arguments->labels,
                      "true labels (.npy or .csv of whole numbers): print the classification error");
  command->add_option("--out", arguments->out, "write the predicted labels here (.npy, |u1)");
  command->callback([arguments, command] {
    require(command->count("--labels") > 0 || command->count("--out") > 0,
            "classify: give --labels (to measure the error) or --out (to write the predictions), or both");
    run_classify(*arguments);
  });
}

}  // namespace
}  // namespace rbmix::cli::classify_command

RBMIX_REGISTER_COMMAND("", rbmix::cli::classify_command::attach)
