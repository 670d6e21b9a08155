#include "rbmix/analysis/slem.hpp"

#include <Eigen/Eigenvalues>

namespace rbmix::analysis {

void SlemOptions::validate() const {
  require(requested_eigenvalues >= 1, "SLEM options: requested_eigenvalues must be ≥ 1");
  require(krylov_dimension >= requested_eigenvalues + 2,
          "SLEM options: krylov_dimension must exceed requested_eigenvalues by at least 2 (Spectra)");
  require(max_restarts >= 1, "SLEM options: max_restarts must be ≥ 1");
  require(tolerance > 0.0, "SLEM options: tolerance must be positive");
}

SlemResult dense_slem(const MatrixD& matrix) {
  require(matrix.rows() == matrix.cols() && matrix.rows() > 0, "dense SLEM: the matrix must be square");
  SlemResult result;
  result.method = "dense";
  if (matrix.rows() == 1) {
    result.slem = 0.0;
    return result;
  }
  const Eigen::MatrixXd column_major = matrix;
  Eigen::EigenSolver<Eigen::MatrixXd> solver(column_major, false);
  require(solver.info() == Eigen::Success, "dense SLEM: the eigenvalue iteration did not converge");
  const Eigen::VectorXcd eigenvalues = solver.eigenvalues();
  Eigen::Index perron = 0;
  (eigenvalues.array() - 1.0).abs().minCoeff(&perron);
  double slem = 0.0;
  for (Eigen::Index k = 0; k < eigenvalues.size(); ++k)
    if (k != perron) slem = std::max(slem, std::abs(eigenvalues[k]));
  result.slem = slem;
  return result;
}

SlemResult stochastic_matrix_slem(const MatrixD& matrix) {
  require(matrix.rows() == matrix.cols() && matrix.rows() > 0, "SLEM: the matrix must be square");
  if (matrix.rows() < stochastic_arnoldi_min_states) return dense_slem(matrix);
  const VectorD uniform = VectorD::Constant(matrix.rows(), 1.0 / static_cast<double>(matrix.rows()));
  SlemOptions arnoldi;
  arnoldi.krylov_dimension = 40;
  arnoldi.max_restarts = 500;
  arnoldi.tolerance = 1e-10;
  const DenseOperator op(matrix);
  const SlemResult result = matrix_free_slem(op, uniform, arnoldi);
  return result.converged ? result : dense_slem(matrix);
}

}  // namespace rbmix::analysis
