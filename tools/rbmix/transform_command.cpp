// rbmix transform: the hidden features of data rows under a trained RBM, p(h_i = 1 | v) = σ(c_i + W_i·v) per row
// and hidden unit (docs/algorithms/operators.md §1), written as a .npy array of float64 (rows × hidden units): the
// inputs of a downstream classifier. --grey-levels reads grey-level rows (|u1 intensities / 255 or floats in [0, 1])
// and uses the grey levels themselves as v (the mean-field input, as a classification RBM does on grey levels).
#include <iostream>
#include <memory>
#include <string>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data_option.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/io/npy.hpp"

namespace rbmix::cli::transform_command {
namespace {

struct TransformArguments {
  std::string model;
  std::string data;
  std::string out;
  bool grey_levels = false;
};

void run_transform(const TransformArguments& arguments) {
  const Rbm rbm = load_rbm(arguments.model).rbm;
  const MatrixD rows = load_rows(arguments.data, arguments.grey_levels, "add --grey-levels to use them as they are");
  require(rows.rows() > 0, "--data " + arguments.data + ": holds no rows");
  require(rows.cols() == rbm.n_visible(), "--data " + arguments.data + ": rows have " + std::to_string(rows.cols()) +
                                              " values but the model " + arguments.model + " has " +
                                              std::to_string(rbm.n_visible()) + " visible units");
  const MatrixD features = rbm.hidden_probabilities(rows);
  write_npy(arguments.out, matrix_to_npy(features));
  std::cout << "wrote " << arguments.out << " (" << features.rows() << " rows x " << features.cols()
            << " hidden units, p(h = 1 | v) as float64)\n";
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<TransformArguments>();
  CLI::App* command =
      parent.add_subcommand("transform", "Hidden features p(h = 1 | v) of data rows under a model (for a classifier)");
  command->add_option("--model", arguments->model, "RBM (.npz, from rbmix train)")->required();
  command
      ->add_option("--data", arguments->data, "rows (.npy, .csv, .png or a directory of .png; one 0/1 sample per row)")
      ->required();
  command->add_option("--out", arguments->out, "features (.npy, float64, rows x hidden units)")->required();
  command->add_flag("--grey-levels", arguments->grey_levels,
                    "--data holds grey levels (|u1 intensities or floats in [0, 1]), used as they are");
  command->callback([arguments] { run_transform(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli::transform_command

RBMIX_REGISTER_COMMAND("", rbmix::cli::transform_command::attach)
