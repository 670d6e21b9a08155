#pragma once
// NumPy .npy arrays, so that models and data sets pass between rbmix and numpy (np.load / np.save) unchanged.
// Promises:
//  - encode_npy writes format version 1.0, little-endian, C order, header padded to a multiple of 64 bytes,
//    exactly as np.save does; decoding what was encoded gives back the same bytes (bit-identical values).
//  - decode_npy reads versions 1.0, 2.0 and 3.0 with dtypes <f8, <f4, |u1 and |b1 (bool), and refuses anything
//    else — wrong magic, unsupported version, malformed header, other or big-endian dtypes, Fortran order,
//    truncated or over-long data — with an InputError that names the source and what is wrong.
// Every platform rbmix builds on is little-endian, which the implementation asserts at compile time.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "rbmix/core/error.hpp"
#include "rbmix/core/types.hpp"

namespace rbmix {

// int64 and int32 are numpy's default integers ("<i8", "<i4": what np.array([0, 1]) and (x > 0.5).astype(int) save):
// data sets and labels are read from them; rbmix never writes them.
enum class NpyDtype { float64, float32, uint8, boolean, int64, int32 };

// Item size in bytes and numpy's type string ("<f8", "<f4", "|u1", "|b1", "<i8", "<i4").
std::size_t npy_item_size(NpyDtype dtype);
std::string npy_descr(NpyDtype dtype);

// An array as stored: element type, shape, and the raw little-endian element bytes in C order.
struct NpyArray {
  NpyDtype dtype = NpyDtype::uint8;
  std::vector<std::int64_t> shape;
  std::string bytes;

  std::int64_t element_count() const;
};

std::string encode_npy(const NpyArray& array);
// `source` names the bytes in error messages: a file name, or "archive.npz: W.npy".
NpyArray decode_npy(std::string_view bytes, const std::string& source);

void write_npy(const std::filesystem::path& file, const NpyArray& array);
NpyArray read_npy(const std::filesystem::path& file);

// The dtype that stores Scalar without conversion.
template <typename Scalar>
constexpr NpyDtype npy_dtype_of() {
  if constexpr (std::is_same_v<Scalar, double>)
    return NpyDtype::float64;
  else if constexpr (std::is_same_v<Scalar, float>)
    return NpyDtype::float32;
  else {
    static_assert(std::is_same_v<Scalar, std::uint8_t>, "npy arrays hold double, float or uint8");
    return NpyDtype::uint8;
  }
}

// A 2-D array (rows × cols) or 1-D array (size) from an Eigen matrix or vector, element bytes copied verbatim.
template <typename Scalar>
NpyArray matrix_to_npy(const Matrix<Scalar>& matrix) {
  NpyArray array{npy_dtype_of<Scalar>(), {matrix.rows(), matrix.cols()}, {}};
  array.bytes.assign(reinterpret_cast<const char*>(matrix.data()),
                     sizeof(Scalar) * static_cast<std::size_t>(matrix.size()));
  return array;
}
template <typename Scalar>
NpyArray vector_to_npy(const Vector<Scalar>& vector) {
  NpyArray array{npy_dtype_of<Scalar>(), {vector.size()}, {}};
  array.bytes.assign(reinterpret_cast<const char*>(vector.data()),
                     sizeof(Scalar) * static_cast<std::size_t>(vector.size()));
  return array;
}

namespace npy_detail {
void require_dtype_and_rank(const NpyArray& array, NpyDtype dtype, std::size_t rank, const std::string& source);
}

// The array as an Eigen matrix (2-D) or vector (1-D) of exactly Scalar's dtype; anything else is an InputError.
template <typename Scalar>
Matrix<Scalar> npy_to_matrix(const NpyArray& array, const std::string& source) {
  npy_detail::require_dtype_and_rank(array, npy_dtype_of<Scalar>(), 2, source);
  Matrix<Scalar> matrix(array.shape[0], array.shape[1]);
  std::copy(array.bytes.begin(), array.bytes.end(), reinterpret_cast<char*>(matrix.data()));
  return matrix;
}
template <typename Scalar>
Vector<Scalar> npy_to_vector(const NpyArray& array, const std::string& source) {
  npy_detail::require_dtype_and_rank(array, npy_dtype_of<Scalar>(), 1, source);
  Vector<Scalar> vector(array.shape[0]);
  std::copy(array.bytes.begin(), array.bytes.end(), reinterpret_cast<char*>(vector.data()));
  return vector;
}

}  // namespace rbmix
