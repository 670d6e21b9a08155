#include "rbmix/sampling/softmax_group.hpp"

#include <string>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

// β(b_k + W_{·k}ᵀh) for the group's units, one chain per row.
template <typename Scalar>
Matrix<Scalar> group_inputs(const BasicRbm<Scalar>& rbm, const SoftmaxGroup& group, const Matrix<Scalar>& hidden,
                            Scalar inverse_temperature) {
  validate_softmax_group(group, rbm.n_visible());
  require(hidden.cols() == rbm.n_hidden(), "softmax group: the hidden states do not match the model");
  Matrix<Scalar> inputs = hidden * rbm.weights.middleCols(group.first_unit, group.size);
  inputs.rowwise() += rbm.visible_bias.segment(group.first_unit, group.size).transpose();
  if (inverse_temperature != Scalar(1)) inputs *= inverse_temperature;
  return inputs;
}

// e^{x − max x} per row: unnormalised probabilities without overflow.
template <typename Scalar>
Matrix<Scalar> shifted_exponentials(Matrix<Scalar> inputs) {
  const Vector<Scalar> largest = inputs.rowwise().maxCoeff();
  inputs.colwise() -= largest;
  return inputs.array().exp().matrix();
}

}  // namespace

void validate_softmax_group(const SoftmaxGroup& group, Eigen::Index n_visible) {
  require(group.size >= 2, "softmax group: needs at least 2 units, not " + std::to_string(group.size));
  require(group.first_unit >= 0 && group.first_unit + group.size <= n_visible,
          "softmax group: units " + std::to_string(group.first_unit) + " … " +
              std::to_string(group.first_unit + group.size - 1) + " lie outside the " + std::to_string(n_visible) +
              " visible units");
}

template <typename Scalar>
void softmax_group_probabilities(const BasicRbm<Scalar>& rbm, const SoftmaxGroup& group, const Matrix<Scalar>& hidden,
                                 Matrix<Scalar>& visible) {
  require(visible.rows() == hidden.rows() && visible.cols() == rbm.n_visible(),
          "softmax group: the visible states do not match the model or the hidden states");
  const Matrix<Scalar> weights = shifted_exponentials(group_inputs(rbm, group, hidden, Scalar(1)));
  const Vector<Scalar> sums = weights.rowwise().sum();
  visible.middleCols(group.first_unit, group.size) = (weights.array().colwise() / sums.array()).matrix();
}

template <typename Scalar>
void sample_softmax_group(const BasicRbm<Scalar>& rbm, const SoftmaxGroup& group, const Matrix<Scalar>& hidden,
                          Matrix<Scalar>& visible, std::vector<RandomStream>& streams, Scalar inverse_temperature) {
  require(visible.rows() == hidden.rows() && visible.cols() == rbm.n_visible(),
          "softmax group: the visible states do not match the model or the hidden states");
  require(static_cast<Eigen::Index>(streams.size()) >= visible.rows(), "softmax group: fewer streams than chains");
  const Matrix<Scalar> weights = shifted_exponentials(group_inputs(rbm, group, hidden, inverse_temperature));
  // K is small (10 for MNIST): one serial pass per chain costs less than a thread team.
  for (Eigen::Index chain = 0; chain < visible.rows(); ++chain) {
    // Inverse CDF in double: u·Σ_k w_k falls in class k's interval with probability w_k / Σ w.
    double total = 0.0;
    for (Eigen::Index k = 0; k < group.size; ++k) total += static_cast<double>(weights(chain, k));
    const double target = streams[static_cast<std::size_t>(chain)].uniform() * total;
    Eigen::Index chosen = group.size - 1;
    double cumulative = 0.0;
    for (Eigen::Index k = 0; k < group.size; ++k) {
      cumulative += static_cast<double>(weights(chain, k));
      if (target < cumulative) {
        chosen = k;
        break;
      }
    }
    auto block = visible.row(chain).segment(group.first_unit, group.size);
    block.setZero();
    block(chosen) = Scalar(1);
  }
}

template <typename Scalar>
void sweep_with_softmax_group(BatchedChains<Scalar>& chains, const BasicRbm<Scalar>& rbm, const UnitRule& rule,
                              const SoftmaxGroup& group, Scalar inverse_temperature) {
  chains.sweep(rbm, rule, inverse_temperature);
  sample_softmax_group(rbm, group, chains.hidden(), chains.visible(), chains.streams(), inverse_temperature);
}

template void softmax_group_probabilities<float>(const BasicRbm<float>&, const SoftmaxGroup&, const Matrix<float>&,
                                                 Matrix<float>&);
template void sample_softmax_group<float>(const BasicRbm<float>&, const SoftmaxGroup&, const Matrix<float>&,
                                          Matrix<float>&, std::vector<RandomStream>&, float);
template void sweep_with_softmax_group<float>(BatchedChains<float>&, const BasicRbm<float>&, const UnitRule&,
                                              const SoftmaxGroup&, float);
template void softmax_group_probabilities<double>(const BasicRbm<double>&, const SoftmaxGroup&, const Matrix<double>&,
                                                  Matrix<double>&);
template void sample_softmax_group<double>(const BasicRbm<double>&, const SoftmaxGroup&, const Matrix<double>&,
                                           Matrix<double>&, std::vector<RandomStream>&, double);
template void sweep_with_softmax_group<double>(BatchedChains<double>&, const BasicRbm<double>&, const UnitRule&,
                                               const SoftmaxGroup&, double);

}  // namespace rbmix
