#pragma once
// Binary RBM (docs/algorithms/operators.md §1): m visible units v ∈ {0,1}^m, n hidden units h ∈ {0,1}^n,
//   E(v,h) = −hᵀWv − bᵀv − cᵀh,   W is n×m (row i = hidden unit i), b visible bias (m), c hidden bias (n).
// Batched functions take one sample per row and return one value (or row) per sample.
#include <Eigen/Core>
#include <cmath>
#include <string>

#include "rbmix/core/decay.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/core/types.hpp"
#include "rbmix/model/binary_product.hpp"
#include "rbmix/model/dense_product.hpp"

namespace rbmix {

// log(1 + e^x) without overflow or loss of precision for large |x|.
template <typename Scalar>
Scalar softplus(Scalar x) {
  return x > Scalar(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

// Element-wise softplus of an Eigen array expression, vectorised: max(x, 0) + log(1 + e^{−|x|}).
template <typename Derived>
typename Derived::PlainObject softplus_array(const Eigen::ArrayBase<Derived>& x) {
  using Scalar = typename Derived::Scalar;
  typename Derived::PlainObject values = x;
  typename Derived::PlainObject decays(values.rows(), values.cols());
  exp_of_negative_magnitude(values.data(), decays.data(), values.size());
  return values.max(Scalar(0)) + decays.log1p();
}

// probabilities = σ(inputs), entry by entry (decay.hpp); sized to fit. Allocates nothing once sized.
template <typename Scalar>
void logistic(const Matrix<Scalar>& inputs, Matrix<Scalar>& probabilities) {
  probabilities.resize(inputs.rows(), inputs.cols());
  logistic(inputs.data(), probabilities.data(), inputs.size());
}

// Element-wise σ of an Eigen array expression.
template <typename Derived>
typename Derived::PlainObject logistic_array(const Eigen::ArrayBase<Derived>& x) {
  const typename Derived::PlainObject values = x;
  typename Derived::PlainObject probabilities(values.rows(), values.cols());
  logistic(values.data(), probabilities.data(), values.size());
  return probabilities;
}

// The two layers; a layer update changes one given the other.
enum class Layer { hidden, visible };

template <typename Scalar>
struct BasicRbm {
  Matrix<Scalar> weights;       // n_hidden × n_visible
  Vector<Scalar> visible_bias;  // b, m
  Vector<Scalar> hidden_bias;   // c, n

  BasicRbm() = default;
  BasicRbm(Eigen::Index n_visible, Eigen::Index n_hidden)
      : weights(Matrix<Scalar>::Zero(n_hidden, n_visible)),
        visible_bias(Vector<Scalar>::Zero(n_visible)),
        hidden_bias(Vector<Scalar>::Zero(n_hidden)) {}

  Eigen::Index n_visible() const { return weights.cols(); }
  Eigen::Index n_hidden() const { return weights.rows(); }

  template <typename Other>
  BasicRbm<Other> cast() const {
    BasicRbm<Other> out;
    out.weights = weights.template cast<Other>();
    out.visible_bias = visible_bias.template cast<Other>();
    out.hidden_bias = hidden_bias.template cast<Other>();
    return out;
  }

  // Throws InputError naming `what` unless the bias lengths match W and every parameter is finite.
  void validate(const std::string& what = "RBM") const {
    require(visible_bias.size() == weights.cols(), what + ": visible bias has " + std::to_string(visible_bias.size()) +
                                                       " entries but W has " + std::to_string(weights.cols()) +
                                                       " columns");
    require(hidden_bias.size() == weights.rows(), what + ": hidden bias has " + std::to_string(hidden_bias.size()) +
                                                      " entries but W has " + std::to_string(weights.rows()) + " rows");
    require(weights.allFinite(), what + ": W contains NaN or Inf");
    require(visible_bias.allFinite(), what + ": visible bias contains NaN or Inf");
    require(hidden_bias.allFinite(), what + ": hidden bias contains NaN or Inf");
  }

  // The total inputs of `layer` given the other layer's states (one sample per row), times β, written into the
  // kept workspace `inputs`: β(c + W v) for the hidden layer, β(b + Wᵀ h) for the visible one. This is the one
  // place a layer's input is formed and tempered (docs/algorithms/operators.md §2): the sampler, the exact tables, the
  // trainer, the negative phases and AIS all call it, so they agree to the last bit. β = 1 skips the product.
  template <typename Derived>
  void layer_inputs(Layer layer, const Eigen::MatrixBase<Derived>& other_layer, Matrix<Scalar>& inputs,
                    Scalar inverse_temperature = Scalar(1)) const {
    // The same bits whatever the thread team (dense_product.hpp).
    if (layer == Layer::hidden) {
      fixed_split_product(other_layer.template cast<Scalar>(), weights.transpose(), inputs);
      inputs.rowwise() += hidden_bias.transpose();
    } else {
      fixed_split_product(other_layer.template cast<Scalar>(), weights, inputs);
      inputs.rowwise() += visible_bias.transpose();
    }
    if (inverse_temperature != Scalar(1)) inputs *= inverse_temperature;
  }
  // The same for an other layer of 0/1 states (chain states, binarised data): the product sums the rows or columns
  // of W that the ones select (binary_product.hpp) when there are few enough ones, else it is the dense product.
  // Equal to layer_inputs to within rounding, and the same whatever the thread count. InputError if `states` holds
  // a value other than 0 and 1: fractional values (mean-field, probabilities) go through layer_inputs.
  // `paths`: the product paths it may take (binary_product.hpp). `transposed_weights`, when given, is a row-major
  // copy of Wᵀ (FixedRbm keeps one): the hidden inputs of a single chain then read W's selected columns as its
  // contiguous rows, with the same numbers.
  void binary_layer_inputs(Layer layer, const Matrix<Scalar>& states, Matrix<Scalar>& inputs,
                           Scalar inverse_temperature = Scalar(1), ProductPaths paths = {},
                           const Matrix<Scalar>* transposed_weights = nullptr) const {
    constexpr const char* what = "BasicRbm::binary_layer_inputs";
    const bool binary = layer == Layer::hidden
                            ? try_binary_times_transpose(states, weights, inputs, what, transposed_weights, paths)
                            : try_binary_times(states, weights, inputs, what, paths);
    if (!binary) {
      layer_inputs(layer, states, inputs, inverse_temperature);
      return;
    }
    inputs.rowwise() += (layer == Layer::hidden ? hidden_bias : visible_bias).transpose();
    if (inverse_temperature != Scalar(1)) inputs *= inverse_temperature;
  }
  // c + W v and b + Wᵀ h as new matrices, for code off the hot path.
  template <typename Derived>
  Matrix<Scalar> hidden_inputs(const Eigen::MatrixBase<Derived>& visible) const {
    Matrix<Scalar> inputs;
    layer_inputs(Layer::hidden, visible, inputs);
    return inputs;
  }
  template <typename Derived>
  Matrix<Scalar> visible_inputs(const Eigen::MatrixBase<Derived>& hidden) const {
    Matrix<Scalar> inputs;
    layer_inputs(Layer::visible, hidden, inputs);
    return inputs;
  }
  // p(h_i = 1 | v) = σ(c_i + W_i·v).
  template <typename Derived>
  Matrix<Scalar> hidden_probabilities(const Eigen::MatrixBase<Derived>& visible) const {
    return logistic_array(hidden_inputs(visible).array()).matrix();
  }
  // p(v_j = 1 | h) = σ(b_j + W_{·j}ᵀ h).
  template <typename Derived>
  Matrix<Scalar> visible_probabilities(const Eigen::MatrixBase<Derived>& hidden) const {
    return logistic_array(visible_inputs(hidden).array()).matrix();
  }

  // E(v,h) per row.
  template <typename DerivedV, typename DerivedH>
  Vector<Scalar> energy(const Eigen::MatrixBase<DerivedV>& visible, const Eigen::MatrixBase<DerivedH>& hidden) const {
    const Matrix<Scalar> v = visible.template cast<Scalar>();
    const Matrix<Scalar> h = hidden.template cast<Scalar>();
    const Matrix<Scalar> hidden_field = v * weights.transpose();
    return -((h.array() * hidden_field.array()).rowwise().sum().matrix() + v * visible_bias + h * hidden_bias);
  }

  // F(v) = −bᵀv − Σ_i softplus(c_i + W_i·v) per row, so that p(v) = e^{−F(v)}/Z.
  template <typename Derived>
  Vector<Scalar> free_energy(const Eigen::MatrixBase<Derived>& visible) const {
    const Matrix<Scalar> v = visible.template cast<Scalar>();
    return free_energy_from_hidden_inputs(v, hidden_inputs(v));
  }

  // F(v) per row from hidden inputs c + W v already at hand (a sampler's or an exchange's), summed in `Sum`:
  // double where differences of free energies of hundreds of nats decide an exchange.
  template <typename Sum = Scalar, typename DerivedV, typename DerivedI>
  Vector<Sum> free_energy_from_hidden_inputs(const Eigen::MatrixBase<DerivedV>& visible,
                                             const Eigen::MatrixBase<DerivedI>& inputs) const {
    return -(visible.template cast<Sum>() * visible_bias.template cast<Sum>() +
             softplus_array(inputs.array()).template cast<Sum>().rowwise().sum().matrix());
  }
};

using Rbm = BasicRbm<double>;
using RbmF = BasicRbm<float>;

}  // namespace rbmix
