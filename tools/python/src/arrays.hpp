#pragma once
// numpy arrays at the boundary of the Python front-end: every array is checked here, once, and converted to the
// library's row-major matrices; the library does the work. Bad arrays raise rbmix::InputError (Python:
// rbmix.InputError) naming the argument; 0/1 data go through the very check the CLI applies to a .npy file
// (binary_matrix_from_npy), so the messages are the same.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "rbmix/core/types.hpp"

namespace rbmix::python {

namespace py = pybind11;

// numpy's way of writing the array's shape: "(4, 5)", "(5,)".
std::string shape_text(const py::array& array);
// A 2-D array of 0/1 values of dtype float64, float32, uint8 or bool, in any memory order (one sample per row).
MatrixD binary_matrix(const py::handle& array, const std::string& what);
// The same, with `columns` columns (the model's units of that layer).
MatrixD binary_matrix(const py::handle& array, const std::string& what, Eigen::Index columns);
// A 2-D float64 or float32 array, in any memory order; `finite` refuses NaN and Inf.
MatrixD real_matrix(const py::handle& array, const std::string& what, bool finite = true);
// A 1-D float64 or float32 array.
VectorD real_vector(const py::handle& array, const std::string& what, bool finite = true);

py::array_t<double> to_numpy(const MatrixD& matrix);
py::array_t<double> to_numpy(const VectorD& vector);
// `array` with numpy's writeable flag cleared: an assignment into it raises instead of changing a copy unseen.
py::array_t<double> read_only(py::array_t<double> array);

}  // namespace rbmix::python
