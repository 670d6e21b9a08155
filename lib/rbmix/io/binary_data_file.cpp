#include "rbmix/io/binary_data_file.hpp"

#include <cmath>
#include <cstring>
#include <sstream>

#include "rbmix/core/entry_checks.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/io/data_file.hpp"
#include "rbmix/io/npy.hpp"

namespace rbmix {
namespace {

// Copies the 0/1 elements of a typed array into bytes, refusing any other value.
template <typename Element>
void copy_zero_one(const std::string& bytes, BinaryMatrix& out, const std::string& source) {
  for (Eigen::Index k = 0; k < out.size(); ++k) {
    Element value;
    std::memcpy(&value, bytes.data() + static_cast<std::size_t>(k) * sizeof(Element), sizeof(Element));
    if (value != Element(0) && value != Element(1)) {
      std::ostringstream message;
      // Counted from 0, as numpy indexes the array; a CSV file's own messages count its lines and columns from 1.
      message << source << ": value at row " << k / out.cols() << ", column " << k % out.cols() << " is " << +value
              << ", but a binary data set holds only 0 and 1 (rows and columns counted from 0)";
      throw InputError(message.str());
    }
    out.data()[k] = static_cast<std::uint8_t>(value);
  }
}

template <typename Element>
Element element(const NpyArray& array, std::size_t k) {
  Element value;
  std::memcpy(&value, array.bytes.data() + k * sizeof(Element), sizeof(Element));
  return value;
}

}  // namespace

void save_binary_matrix(const std::filesystem::path& file, const BinaryMatrix& data) {
  require((data.array() <= 1).all(), "data to save as " + file.string() + " holds values other than 0 and 1");
  write_npy(file, matrix_to_npy(data));
}

BinaryMatrix load_binary_matrix(const std::filesystem::path& file) {
  return binary_matrix_from_npy(read_data_file(file).array, file.string());
}

BinaryMatrix binary_matrix_from_npy(const NpyArray& array, const std::string& source) {
  require(array.shape.size() == 2, source + ": a data set must be a 2-D array (samples × features), found " +
                                       std::to_string(array.shape.size()) + "-D");
  BinaryMatrix data(array.shape[0], array.shape[1]);
  switch (array.dtype) {
    case NpyDtype::uint8:
    case NpyDtype::boolean:
      copy_zero_one<std::uint8_t>(array.bytes, data, source);
      break;
    case NpyDtype::float32:
      copy_zero_one<float>(array.bytes, data, source);
      break;
    case NpyDtype::float64:
      copy_zero_one<double>(array.bytes, data, source);
      break;
    case NpyDtype::int64:
      copy_zero_one<std::int64_t>(array.bytes, data, source);
      break;
    case NpyDtype::int32:
      copy_zero_one<std::int32_t>(array.bytes, data, source);
      break;
  }
  return data;
}

std::vector<int> load_labels(const std::filesystem::path& file) {
  return labels_from_npy(read_data_file(file).array, file.string());
}

std::vector<int> labels_from_npy(const NpyArray& array, const std::string& source) {
  const bool one_column = array.shape.size() == 2 && array.shape[1] == 1;
  require(array.shape.size() == 1 || one_column, [&] {
    return source + ": labels must be a 1-D array or one column (one label per line of a CSV file), found " +
           (array.shape.size() == 2 ? std::to_string(array.shape[1]) + " columns"
                                    : std::to_string(array.shape.size()) + "-D");
  });
  std::vector<int> labels(static_cast<std::size_t>(array.shape[0]));
  const auto check = [&](double value, std::size_t k) {
    require(value >= 0 && value <= kMaxLabel && std::floor(value) == value, [&] {
      std::ostringstream message;
      message << source << ": label " << k << " (counted from 0) is " << value
              << "; a class label is an integer from 0 to " << kMaxLabel;
      return message.str();
    });
    labels[k] = static_cast<int>(value);
  };
  switch (array.dtype) {
    case NpyDtype::uint8:
      for (std::size_t k = 0; k < labels.size(); ++k) labels[k] = static_cast<unsigned char>(array.bytes[k]);
      break;
    case NpyDtype::float64:
      for (std::size_t k = 0; k < labels.size(); ++k) check(element<double>(array, k), k);
      break;
    case NpyDtype::float32:
      for (std::size_t k = 0; k < labels.size(); ++k) check(element<float>(array, k), k);
      break;
    case NpyDtype::int64:  // every label rbmix takes is exact in a double, and every larger one stays larger
      for (std::size_t k = 0; k < labels.size(); ++k) check(static_cast<double>(element<std::int64_t>(array, k)), k);
      break;
    case NpyDtype::int32:
      for (std::size_t k = 0; k < labels.size(); ++k) check(element<std::int32_t>(array, k), k);
      break;
    case NpyDtype::boolean:
      throw InputError(source +
                       ": labels must be integers (|u1, <i8, <i4, or <f4/<f8 or CSV holding whole numbers), not |b1");
  }
  return labels;
}

MatrixD load_grey_levels(const std::filesystem::path& file) {
  const std::string source = file.string();
  const NpyArray array = read_data_file(file).array;
  require(array.shape.size() == 2, source + ": grey levels must be a 2-D array (samples × features), found " +
                                       std::to_string(array.shape.size()) + "-D");
  MatrixD grey(array.shape[0], array.shape[1]);
  switch (array.dtype) {
    case NpyDtype::uint8: {
      // x / 255 in double, the very probability stochastic_binarize compares its draws with.
      constexpr double max_intensity = 255.0;
      for (Eigen::Index k = 0; k < grey.size(); ++k)
        grey.data()[k] = static_cast<unsigned char>(array.bytes[static_cast<std::size_t>(k)]) / max_intensity;
      return grey;
    }
    case NpyDtype::float64:
      grey = npy_to_matrix<double>(array, source);
      break;
    case NpyDtype::float32:
      grey = npy_to_matrix<float>(array, source).cast<double>();
      break;
    case NpyDtype::boolean:
    case NpyDtype::int64:
    case NpyDtype::int32:
      throw InputError(source + ": grey levels must be |u1 intensities or <f4/<f8 values in [0, 1], not " +
                       npy_descr(array.dtype));
  }
  require(all_in_unit_interval(grey), source + ": a grey level lies outside [0, 1]");
  return grey;
}

}  // namespace rbmix
