#include "arrays.hpp"

#include <cstring>

#include "rbmix/core/error.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/npy.hpp"

namespace rbmix::python {

std::string shape_text(const py::array& array) {
  std::string text = "(";
  for (py::ssize_t k = 0; k < array.ndim(); ++k) text += (k > 0 ? ", " : "") + std::to_string(array.shape(k));
  return text + (array.ndim() == 1 ? ",)" : ")");
}

namespace {

py::array as_array(const py::handle& object, const std::string& what) {
  require(py::isinstance<py::array>(object), [&] {
    return what + ": expected a numpy array, got " + std::string(py::str(py::type::of(object).attr("__name__")));
  });
  return py::reinterpret_borrow<py::array>(object);
}

// The array in C order and native byte order: a view where it already is, a copy otherwise (strided views,
// Fortran order, byte-swapped data).
py::array c_contiguous(const py::array& array) {
  const py::module_ numpy = py::module_::import("numpy");
  return numpy.attr("ascontiguousarray")(array, py::arg("dtype") = array.dtype().attr("newbyteorder")("="));
}

void require_ndim(const py::array& array, const std::string& what, py::ssize_t ndim, const char* layout) {
  require(array.ndim() == ndim, [&] {
    return what + ": expected a " + std::to_string(ndim) + "-D array (" + layout + "), found " +
           std::to_string(array.ndim()) + "-D of shape " + shape_text(array);
  });
}

// float64 or float32, copied into doubles in C order.
std::vector<double> real_values(const py::array& array, const std::string& what) {
  const char kind = array.dtype().kind();
  const auto size = array.dtype().itemsize();
  require(kind == 'f' && (size == 8 || size == 4), [&] {
    return what + ": dtype " + std::string(py::str(array.dtype())) + " is not float64 or float32";
  });
  const py::array contiguous = c_contiguous(array);
  std::vector<double> values(static_cast<std::size_t>(contiguous.size()));
  if (size == 8) {
    if (!values.empty()) std::memcpy(values.data(), contiguous.data(), values.size() * sizeof(double));
  } else {
    const auto* floats = static_cast<const float*>(contiguous.data());
    for (std::size_t k = 0; k < values.size(); ++k) values[k] = floats[k];
  }
  return values;
}

}  // namespace

MatrixD binary_matrix(const py::handle& object, const std::string& what) {
  const py::array array = as_array(object, what);
  NpyArray npy;
  const char kind = array.dtype().kind();
  const auto size = array.dtype().itemsize();
  if (kind == 'f' && size == 8) {
    npy.dtype = NpyDtype::float64;
  } else if (kind == 'f' && size == 4) {
    npy.dtype = NpyDtype::float32;
  } else if (kind == 'u' && size == 1) {
    npy.dtype = NpyDtype::uint8;
  } else if (kind == 'b') {
    npy.dtype = NpyDtype::boolean;
  } else if (kind == 'i' && size == 8) {
    npy.dtype = NpyDtype::int64;
  } else if (kind == 'i' && size == 4) {
    npy.dtype = NpyDtype::int32;
  } else {
    throw InputError(what + ": dtype " + std::string(py::str(array.dtype())) +
                     " is not one of float64, float32, uint8, bool, int64 and int32 (0/1 data)");
  }
  for (py::ssize_t k = 0; k < array.ndim(); ++k) npy.shape.push_back(array.shape(k));
  if (array.ndim() == 2) {
    const py::array contiguous = c_contiguous(array);
    npy.bytes.assign(static_cast<const char*>(contiguous.data()),
                     static_cast<std::size_t>(contiguous.size()) * static_cast<std::size_t>(size));
  }
  // The CLI's own check of a data set: rank, then every value 0 or 1, naming the first that is not.
  return binary_matrix_from_npy(npy, what).cast<double>();
}

MatrixD binary_matrix(const py::handle& object, const std::string& what, Eigen::Index columns) {
  MatrixD matrix = binary_matrix(object, what);
  require(matrix.cols() == columns, [&] {
    return what + ": has " + std::to_string(matrix.cols()) + " columns but the model has " + std::to_string(columns) +
           " units in that layer";
  });
  return matrix;
}

MatrixD real_matrix(const py::handle& object, const std::string& what, bool finite) {
  const py::array array = as_array(object, what);
  require_ndim(array, what, 2, "rows × columns");
  const std::vector<double> values = real_values(array, what);
  MatrixD matrix = Eigen::Map<const MatrixD>(values.data(), array.shape(0), array.shape(1));
  require(!finite || matrix.allFinite(), what + ": contains NaN or Inf");
  return matrix;
}

VectorD real_vector(const py::handle& object, const std::string& what, bool finite) {
  const py::array array = as_array(object, what);
  require_ndim(array, what, 1, "one entry per unit");
  const std::vector<double> values = real_values(array, what);
  VectorD vector = Eigen::Map<const VectorD>(values.data(), array.shape(0));
  require(!finite || vector.allFinite(), what + ": contains NaN or Inf");
  return vector;
}

py::array_t<double> to_numpy(const MatrixD& matrix) {
  py::array_t<double> out({matrix.rows(), matrix.cols()});
  if (matrix.size() > 0) std::memcpy(out.mutable_data(), matrix.data(), sizeof(double) * matrix.size());
  return out;
}

py::array_t<double> to_numpy(const VectorD& vector) {
  py::array_t<double> out(vector.size());
  if (vector.size() > 0) std::memcpy(out.mutable_data(), vector.data(), sizeof(double) * vector.size());
  return out;
}

py::array_t<double> read_only(py::array_t<double> array) {
  array.attr("setflags")(py::arg("write") = false);
  return array;
}

}  // namespace rbmix::python
