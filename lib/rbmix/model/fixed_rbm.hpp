#pragma once
// FixedRbm: an RBM whose parameters stay fixed for many sweeps (a long chain's energy trace, an AIS run's target),
// with Wᵀ kept beside W. A single chain's hidden inputs c + W v sum the columns of W that v selects; W is stored
// row after row, so those columns are scattered, and the 0/1 product (binary_product.hpp) would pack all of W into
// a contiguous block at every update. Here they are Wᵀ's rows, read where they lie. The numbers are those of
// BasicRbm::binary_layer_inputs on the same model, bit for bit: the same entries are summed in the same order.
// The model is copied in and cannot be changed afterwards, so Wᵀ never goes stale.
#include <utility>

#include "rbmix/model/rbm.hpp"

namespace rbmix {

template <typename Scalar>
class FixedRbm {
 public:
  explicit FixedRbm(BasicRbm<Scalar> rbm) : rbm_(std::move(rbm)), transposed_weights_(rbm_.weights.transpose()) {}

  const BasicRbm<Scalar>& rbm() const { return rbm_; }
  const Matrix<Scalar>& transposed_weights() const { return transposed_weights_; }
  Eigen::Index n_visible() const { return rbm_.n_visible(); }
  Eigen::Index n_hidden() const { return rbm_.n_hidden(); }

  // BasicRbm::binary_layer_inputs of the model, reading Wᵀ where that is faster.
  void binary_layer_inputs(Layer layer, const Matrix<Scalar>& states, Matrix<Scalar>& inputs,
                           Scalar inverse_temperature = Scalar(1), ProductPaths paths = {}) const {
    rbm_.binary_layer_inputs(layer, states, inputs, inverse_temperature, paths, &transposed_weights_);
  }

 private:
  BasicRbm<Scalar> rbm_;
  Matrix<Scalar> transposed_weights_;  // n_visible × n_hidden, row-major
};

}  // namespace rbmix
