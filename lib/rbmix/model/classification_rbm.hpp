#pragma once
// Classification RBM (000 §4.2; docs/algorithms/pcd-study.md §9.1): an RBM whose visible layer is D binary inputs x
// followed by one K-way softmax group, the label y as a one-hot block e_y, so that
//   E(x, y, h) = −hᵀW[x; e_y] − bᵀ[x; e_y] − cᵀh,
//   F(x, y)    = −b_xᵀx − b_y − Σ_i softplus(c_i + W_{i,x}·x + W_{i,D+y}),
//   p(y | x)   = e^{−F(x,y)} / Σ_k e^{−F(x,k)}   (exact: K free energies per input).
// The parameters are a plain BasicRbm over D + K visible units (the label units last), so the trainer, the chains
// and the model file handle it as an RBM; only the label group is sampled differently (sampling/softmax_group.hpp:
// exactly from its conditional, as one K-way unit). Labels are integers 0 … K − 1.
#include <cstdint>
#include <string>
#include <vector>

#include "rbmix/model/rbm.hpp"

namespace rbmix {

struct ClassificationRbm {
  Rbm rbm;                   // visible units: the D inputs, then the K label units
  Eigen::Index classes = 0;  // K

  Eigen::Index n_inputs() const { return rbm.n_visible() - classes; }

  // Throws InputError naming `what` unless the RBM is valid, K ≥ 2 and at least one input precedes the labels.
  void validate(const std::string& what = "classification RBM") const;
};

// F(x, y) for every row x of `inputs` (N × D) and every class y: an N × K matrix.
MatrixD class_free_energies(const ClassificationRbm& model, const MatrixD& inputs);
// p(y | x) = softmax(−F(x, ·)) per row: an N × K matrix.
MatrixD class_probabilities(const ClassificationRbm& model, const MatrixD& inputs);
// argmax_y p(y | x) = argmin_y F(x, y) per row (the smallest y on ties).
std::vector<int> predict_labels(const ClassificationRbm& model, const MatrixD& inputs);
// Throws InputError naming `what` unless every label lies in 0 … classes − 1 (a label the model has no class for).
void require_labels_in_classes(const std::vector<int>& labels, Eigen::Index classes, const std::string& what);
// The fraction of rows whose predicted label differs from `labels` (each in 0 … classes − 1).
double classification_error(const ClassificationRbm& model, const MatrixD& inputs, const std::vector<int>& labels);

// Rows [x, e_y]: the inputs with the one-hot label block appended (what the classification RBM is trained on).
// Throws InputError naming `what` when the counts differ or a label lies outside 0 … classes − 1.
MatrixD append_one_hot_labels(const MatrixD& inputs, const std::vector<int>& labels, Eigen::Index classes,
                              const std::string& what = "labels");
// The label of each row from its last `classes` columns; throws InputError naming `what` unless each row holds
// exactly one 1 and otherwise 0 there.
std::vector<int> one_hot_labels(const MatrixD& rows, Eigen::Index classes, const std::string& what);

}  // namespace rbmix
