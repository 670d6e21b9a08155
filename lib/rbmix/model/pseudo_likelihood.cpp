#include "rbmix/model/pseudo_likelihood.hpp"

#include <cmath>

#include "rbmix/core/entry_checks.hpp"
#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

MatrixD local_fields(const BoltzmannMachine& model, const MatrixD& states) {
  require(states.cols() == model.size(), "pseudo-likelihood states: " + std::to_string(states.cols()) +
                                             " columns but the model has " + std::to_string(model.size()) + " units");
  require(states.rows() >= 1, "pseudo-likelihood states: no rows");
  // J is symmetric, so row s of X J holds Σ_j J_ij x_j for every unit i.
  return (states * model.couplings).rowwise() + model.biases.transpose();
}

}  // namespace

double mean_log_pseudo_likelihood(const BoltzmannMachine& model, const MatrixD& states) {
  const MatrixD fields = local_fields(model, states);
  // softplus(h) = max(h, 0) + log1p(e^{−|h|}) stays finite for large |h|.
  const auto softplus = fields.array().max(0.0) + (-fields.array().abs()).exp().log1p();
  return ((states.array() * fields.array() - softplus).rowwise().sum()).mean();
}

BoltzmannMachineGradient log_pseudo_likelihood_gradient(const BoltzmannMachine& model, const MatrixD& states) {
  const MatrixD fields = local_fields(model, states);
  const MatrixD residuals = states.array() - (1.0 + (-fields.array()).exp()).inverse();
  const double count = static_cast<double>(states.rows());
  MatrixD couplings = (residuals.transpose() * states) / count;
  couplings = (couplings + couplings.transpose()).eval();
  couplings.diagonal().setZero();
  return {std::move(couplings), residuals.colwise().sum().transpose() / count};
}

double mean_log_pseudo_likelihood(const Rbm& rbm, const MatrixD& data) {
  require(data.cols() == rbm.n_visible(), "pseudo-likelihood data: " + std::to_string(data.cols()) +
                                              " columns but the model has " + std::to_string(rbm.n_visible()) +
                                              " visible units");
  require(data.rows() >= 1, "pseudo-likelihood data: no rows");
  require(all_binary(data), "pseudo-likelihood data: every value must be 0 or 1");
  const MatrixD inputs = rbm.hidden_inputs(data);
  VectorD row_values(data.rows());
#pragma omp parallel for schedule(static)
  for (Eigen::Index row = 0; row < data.rows(); ++row) {
    const Eigen::ArrayXd flips = 1.0 - 2.0 * data.row(row).transpose().array();
    const Eigen::ArrayXd x = inputs.row(row).transpose().array();
    // Column i holds x + s_i W_{·i}: the hidden inputs with visible unit i flipped.
    const Eigen::ArrayXXd flipped_inputs = (rbm.weights.array().rowwise() * flips.transpose()).colwise() + x;
    const Eigen::ArrayXd differences = flips * rbm.visible_bias.array() +
                                       softplus_array(flipped_inputs).colwise().sum().transpose() -
                                       softplus_array(x).sum();
    row_values[row] = -softplus_array(differences).sum();
  }
  return row_values.mean();
}

}  // namespace rbmix
