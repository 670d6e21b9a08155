#include "rbmix/io/binary_data_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rbmix/core/error.hpp"
#include "rbmix/io/npy.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;

TEST(BinaryDataFile, RoundTripAsUint8) {
  const testing::TemporaryDirectory directory;
  BinaryMatrix data(3, 4);
  data << 0, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0;
  save_binary_matrix(directory / "d.npy", data);
  EXPECT_EQ(read_npy(directory / "d.npy").dtype, NpyDtype::uint8);
  EXPECT_EQ(load_binary_matrix(directory / "d.npy"), data);
}

TEST(BinaryDataFile, AcceptsZeroOneFloatsAndRefusesOtherValues) {
  const testing::TemporaryDirectory directory;
  MatrixD doubles(2, 2);
  doubles << 0, 1, 1, 0;
  write_npy(directory / "f8.npy", matrix_to_npy(doubles));
  EXPECT_EQ(load_binary_matrix(directory / "f8.npy"), doubles.cast<std::uint8_t>());
  write_npy(directory / "f4.npy", matrix_to_npy(MatrixF(doubles.cast<float>())));
  EXPECT_EQ(load_binary_matrix(directory / "f4.npy"), doubles.cast<std::uint8_t>());

  doubles(1, 0) = 0.5;
  write_npy(directory / "half.npy", matrix_to_npy(doubles));
  EXPECT_THAT([&] { load_binary_matrix(directory / "half.npy"); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("row 1, column 0 is 0.5")));
  BinaryMatrix twos = BinaryMatrix::Constant(1, 2, 2);
  write_npy(directory / "twos.npy", matrix_to_npy(twos));
  EXPECT_THROW(load_binary_matrix(directory / "twos.npy"), InputError);
  EXPECT_THROW(save_binary_matrix(directory / "bad.npy", twos), InputError);
  write_npy(directory / "vector.npy", vector_to_npy(VectorD(VectorD::Zero(3))));
  EXPECT_THAT([&] { load_binary_matrix(directory / "vector.npy"); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("2-D array")));
}

TEST(BinaryDataFile, LabelsAreOneDimensionalBytes) {
  const testing::TemporaryDirectory directory;
  Vector<std::uint8_t> labels(4);
  labels << 3, 0, 9, 1;
  write_npy(directory / "labels.npy", vector_to_npy(labels));
  EXPECT_EQ(load_labels(directory / "labels.npy"), (std::vector<int>{3, 0, 9, 1}));
  write_npy(directory / "matrix.npy", matrix_to_npy(BinaryMatrix(BinaryMatrix::Zero(2, 2))));
  EXPECT_THROW(load_labels(directory / "matrix.npy"), InputError);
  write_npy(directory / "float.npy", vector_to_npy(VectorD(VectorD::Zero(3))));
  EXPECT_EQ(load_labels(directory / "float.npy"), (std::vector<int>{0, 0, 0}));
  write_npy(directory / "bool.npy", NpyArray{NpyDtype::boolean, {2}, std::string(2, '\1')});
  EXPECT_THROW(load_labels(directory / "bool.npy"), InputError);
}

// numpy's default integers: np.array([[0, 1], [1, 0]]) saves <i8, and astype(np.int32) <i4. The bytes below are
// what numpy writes (little-endian two's complement).
NpyArray integer_array(NpyDtype dtype, std::vector<std::int64_t> shape, const std::vector<std::int64_t>& values) {
  NpyArray array{dtype, std::move(shape), {}};
  for (const std::int64_t value : values) {
    if (dtype == NpyDtype::int64) {
      array.bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
    } else {
      const auto narrow = static_cast<std::int32_t>(value);
      array.bytes.append(reinterpret_cast<const char*>(&narrow), sizeof narrow);
    }
  }
  return array;
}

TEST(BinaryDataFile, ReadsNumpysDefaultIntegers) {
  const testing::TemporaryDirectory directory;
  BinaryMatrix expected(2, 2);
  expected << 0, 1, 1, 0;
  for (const NpyDtype dtype : {NpyDtype::int64, NpyDtype::int32}) {
    const std::string name = npy_descr(dtype).substr(1);
    write_npy(directory / (name + ".npy"), integer_array(dtype, {2, 2}, {0, 1, 1, 0}));
    EXPECT_EQ(load_binary_matrix(directory / (name + ".npy")), expected);
    write_npy(directory / (name + "-minus.npy"), integer_array(dtype, {1, 2}, {1, -1}));
    EXPECT_THAT([&] { load_binary_matrix(directory / (name + "-minus.npy")); },
                ::testing::ThrowsMessage<InputError>(HasSubstr("row 0, column 1 is -1")));
    write_npy(directory / (name + "-labels.npy"), integer_array(dtype, {3}, {7, 0, 65535}));
    EXPECT_EQ(load_labels(directory / (name + "-labels.npy")), (std::vector<int>{7, 0, 65535}));
    write_npy(directory / (name + "-negative.npy"), integer_array(dtype, {2}, {1, -3}));
    EXPECT_THAT([&] { load_labels(directory / (name + "-negative.npy")); },
                ::testing::ThrowsMessage<InputError>(HasSubstr("label 1 (counted from 0) is -3")));
    EXPECT_THAT([&] { load_grey_levels(directory / (name + ".npy")); },
                ::testing::ThrowsMessage<InputError>(HasSubstr("not " + npy_descr(dtype))));
  }
  // A label beyond int32 but exact in a double is refused, not wrapped.
  write_npy(directory / "huge.npy", integer_array(NpyDtype::int64, {1}, {std::int64_t{1} << 40}));
  EXPECT_THAT([&] { load_labels(directory / "huge.npy"); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("label 0 (counted from 0) is 1.09951e+12")));
}

// Intensities x read as x / 255, the probability stochastic binarisation compares its draws with; floats must lie
// in [0, 1].
TEST(BinaryDataFile, GreyLevelsFromIntensitiesOrUnitFloats) {
  const testing::TemporaryDirectory directory;
  BinaryMatrix intensities(1, 3);
  intensities << 0, 128, 255;
  write_npy(directory / "grey.npy", matrix_to_npy(intensities));
  const MatrixD grey = load_grey_levels(directory / "grey.npy");
  EXPECT_EQ(grey(0, 0), 0.0);
  EXPECT_EQ(grey(0, 1), 128 / 255.0);
  EXPECT_EQ(grey(0, 2), 1.0);
  MatrixD values(1, 2);
  values << 0.25, 1.5;
  write_npy(directory / "outside.npy", matrix_to_npy(values));
  EXPECT_THAT([&] { load_grey_levels(directory / "outside.npy"); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("outside [0, 1]")));
  values(0, 1) = 0.75;
  write_npy(directory / "inside.npy", matrix_to_npy(values));
  EXPECT_EQ(load_grey_levels(directory / "inside.npy"), values);
}

}  // namespace
}  // namespace rbmix
