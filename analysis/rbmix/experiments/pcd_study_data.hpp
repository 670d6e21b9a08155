#pragma once
// The data sets of the PCD study's parts (000 §4.1): the RBM parts' rows with their labels (MNIST, binarised afresh
// at every use, or Artificial Modes at smoke scale) and the MRF part's patches, split 60/20/20.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "rbmix/core/types.hpp"

namespace rbmix::experiments {

// One data set of the RBM parts: training rows (grey levels when `grey`), fixed 0/1 validation and test rows, and
// the labels of each.
struct RbmData {
  MatrixD train;
  bool grey = false;
  MatrixD validation;
  MatrixD test;
  std::vector<int> train_labels, validation_labels, test_labels;
  int classes = 0;
};

// `mnist` empty: Artificial Modes; the rows and the binarisation drawn from `experiment_seed`.
RbmData load_rbm_data(std::uint64_t experiment_seed, const std::filesystem::path& mnist, Eigen::Index training_rows,
                      Eigen::Index evaluation_rows);

// Patches of the MRF part: training, validation and test (60/20/20).
struct MrfData {
  BinaryMatrix train, validation, test;
};

// `patches` rows of patch_side × patch_side pixels (`mnist` empty: Artificial Modes), split from `experiment_seed`.
MrfData load_mrf_data(std::uint64_t experiment_seed, const std::filesystem::path& mnist, Eigen::Index patches,
                      Eigen::Index patch_side);

}  // namespace rbmix::experiments
