#pragma once
// Binary data sets on disk: a 2-D array, one sample per row (n_samples × n_features), in any data file the one
// reader reads (data_file.hpp: .npy, CSV, greyscale PNG images).
// save_binary_matrix writes .npy of dtype |u1 (np.load gives a uint8 array). load_binary_matrix also accepts |b1,
// <i8, <i4, <f4 and <f8 arrays (CSV and PNG read as <f8) whose every value is exactly 0 or 1, as numpy users
// commonly save them; any other value, rank or dtype is an InputError naming the file.
#include <filesystem>
#include <string>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/io/npy.hpp"

namespace rbmix {

void save_binary_matrix(const std::filesystem::path& file, const BinaryMatrix& data);
BinaryMatrix load_binary_matrix(const std::filesystem::path& file);
// The same check and conversion of an array already in memory (the Python front-end's numpy arrays); `source`
// names it in messages.
BinaryMatrix binary_matrix_from_npy(const NpyArray& array, const std::string& source);

// Class labels: a 1-D array or a 2-D array of one column (a CSV file of one label per line), of dtype |u1 (as rbmix
// data convert-mnist writes them), <i8/<i4 (numpy's default integers) or <f4/<f8 (and so CSV) holding integers from
// 0 to kMaxLabel. A non-integer, negative or larger label is an InputError naming the file and the label's index.
inline constexpr int kMaxLabel = 65535;  // far beyond any class count, and exact in <f4
std::vector<int> load_labels(const std::filesystem::path& file);
// The same check and conversion of an array already read; `source` names it in messages.
std::vector<int> labels_from_npy(const NpyArray& array, const std::string& source);
// Grey levels p ∈ [0, 1], one sample per row, for data binarised afresh at every use (000 §4.1): a 2-D |u1 array
// of intensities x ∈ [0, 255] read as p = x / 255 (as stochastic_binarize reads them), or <f4 / <f8 values in
// [0, 1]. Anything else is an InputError naming the file.
MatrixD load_grey_levels(const std::filesystem::path& file);

}  // namespace rbmix
