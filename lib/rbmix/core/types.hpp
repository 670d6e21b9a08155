#pragma once
// Shared matrix conventions. A batch holds one sample per row (row-major), so each chain's units are contiguous
// and each chain's random stream walks its own row. W is n_hidden × n_visible (row i = hidden unit i).
#include <Eigen/Core>

namespace rbmix {

template <typename Scalar>
using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename Scalar>
using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
template <typename Scalar>
using RowVector = Eigen::Matrix<Scalar, 1, Eigen::Dynamic>;

using MatrixD = Matrix<double>;
using MatrixF = Matrix<float>;
using VectorD = Vector<double>;
using VectorF = Vector<float>;

// Binary data sets are stored as bytes, one sample per row.
using BinaryMatrix = Eigen::Matrix<std::uint8_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace rbmix
