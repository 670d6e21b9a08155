#include "rbmix/analysis/stationarity.hpp"

namespace rbmix::analysis {

double detailed_balance_error(const MatrixD& matrix, const VectorD& stationary) {
  require(matrix.rows() == matrix.cols() && stationary.size() == matrix.rows(),
          "detailed balance: π and the matrix differ in size");
  const MatrixD flow = stationary.asDiagonal() * matrix;  // flow(x, y) = π(x) K(x, y)
  return (flow - flow.transpose()).cwiseAbs().maxCoeff();
}

}  // namespace rbmix::analysis
