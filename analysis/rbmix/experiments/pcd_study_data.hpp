#pragma once
// The data sets of the PCD study's parts (000 §4.1): the RBM parts' rows with their labels (MNIST, binarised afresh
// at every use, or Artificial Modes at smoke scale) and the MRF part's patches, split 60/20/20.
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/experiments/pcd_study_experiment.hpp"

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

RbmData load_rbm_data(const PcdStudyOptions& options);

// Patches of the MRF part: training, validation and test (60/20/20).
struct MrfData {
  BinaryMatrix train, validation, test;
};

MrfData load_mrf_data(const PcdStudyOptions& options);

}  // namespace rbmix::experiments
