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
