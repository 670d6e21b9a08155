#include "rbmix/sampling/rates.hpp"

#include <algorithm>
#include <string>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

// Rows per block: the block's hidden means (block × n doubles) stay small whatever the data set's size.
constexpr Eigen::Index kRowsPerBlock = 4096;

}  // namespace

SufficientStatistics compute_rates(const Rbm& rbm, const BinaryMatrix& data, const std::string& source) {
  rbm.validate();
  require(data.rows() > 0, source + ": the rates data set has no rows");
  require(data.cols() == rbm.n_visible(), source + ": rows have " + std::to_string(data.cols()) +
                                              " values but the model has " + std::to_string(rbm.n_visible()) +
                                              " visible units");
  require((data.array() <= 1).all(), source + ": the rates data must be binary (every value 0 or 1)");
  SufficientStatistics rates = SufficientStatistics::zero(rbm.n_visible(), rbm.n_hidden());
  for (Eigen::Index first = 0; first < data.rows(); first += kRowsPerBlock) {
    const Eigen::Index rows = std::min(kRowsPerBlock, data.rows() - first);
    const MatrixD visible = data.middleRows(first, rows).cast<double>();
    const MatrixD hidden_means = rbm.hidden_probabilities(visible);
    rates.weights.noalias() += hidden_means.transpose() * visible;
    rates.visible += visible.colwise().sum().transpose();
    rates.hidden += hidden_means.colwise().sum().transpose();
  }
  const double rows = static_cast<double>(data.rows());
  rates.weights /= rows;
  rates.visible /= rows;
  rates.hidden /= rows;
  return rates;
}

}  // namespace rbmix
