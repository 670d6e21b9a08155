#include "rbmix/io/binary_data_file.hpp"

#include <cstring>
#include <sstream>

#include "rbmix/core/error.hpp"
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
      message << source << ": value at row " << k / out.cols() << ", column " << k % out.cols() << " is " << +value
              << ", but a binary data set holds only 0 and 1";
      throw InputError(message.str());
    }
    out.data()[k] = static_cast<std::uint8_t>(value);
  }
}

}  // namespace

void save_binary_matrix(const std::filesystem::path& file, const BinaryMatrix& data) {
  require((data.array() <= 1).all(), "data to save as " + file.string() + " holds values other than 0 and 1");
  write_npy(file, matrix_to_npy(data));
}

BinaryMatrix load_binary_matrix(const std::filesystem::path& file) {
  const std::string source = file.string();
  const NpyArray array = read_npy(file);
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
  }
  return data;
}

}  // namespace rbmix
