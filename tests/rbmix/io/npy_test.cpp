#include "rbmix/io/npy.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "rbmix/io/file_bytes.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;

template <typename Scalar>
bool bit_identical(const Matrix<Scalar>& a, const Matrix<Scalar>& b) {
  // memcmp must not see the null data pointer of an empty matrix, even with size 0.
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 ||
          std::memcmp(a.data(), b.data(), sizeof(Scalar) * static_cast<std::size_t>(a.size())) == 0);
}

// The message of the InputError that decoding `bytes` throws (empty if it does not throw).
std::string decode_error(std::string_view bytes) {
  try {
    decode_npy(bytes, "broken.npy");
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

RC_GTEST_PROP(Npy, DoubleMatrixRoundTripIsBitIdentical, (const std::vector<double>& values)) {
  const auto rows = static_cast<Eigen::Index>(*rc::gen::inRange(0, 5));
  const auto cols = rows == 0 ? Eigen::Index{3} : static_cast<Eigen::Index>(values.size()) / rows;
  Matrix<double> matrix(rows, cols);
  for (Eigen::Index k = 0; k < matrix.size(); ++k) matrix.data()[k] = values[static_cast<std::size_t>(k)];
  RC_ASSERT(bit_identical(npy_to_matrix<double>(decode_npy(encode_npy(matrix_to_npy(matrix)), "m"), "m"), matrix));
}

TEST(Npy, RoundTripsKeepSpecialValuesBitForBit) {
  Matrix<double> doubles(2, 3);
  doubles << 0.1, -0.0, std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max(),
      std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(bit_identical(npy_to_matrix<double>(decode_npy(encode_npy(matrix_to_npy(doubles)), "d"), "d"), doubles));

  Matrix<float> floats(3, 1);
  floats << 1.0f / 3.0f, -7.5e-39f, 3.4e38f;
  EXPECT_TRUE(bit_identical(npy_to_matrix<float>(decode_npy(encode_npy(matrix_to_npy(floats)), "f"), "f"), floats));

  Matrix<std::uint8_t> bytes(2, 2);
  bytes << 0, 1, 128, 255;
  EXPECT_TRUE(
      bit_identical(npy_to_matrix<std::uint8_t>(decode_npy(encode_npy(matrix_to_npy(bytes)), "u"), "u"), bytes));

  VectorD vector(4);
  vector << 1.0, 2.0, -3.0, 1e-300;
  EXPECT_EQ(npy_to_vector<double>(decode_npy(encode_npy(vector_to_npy(vector)), "v"), "v"), vector);
}

TEST(Npy, WritesTheHeaderNumpyWrites) {
  // np.save(f, np.zeros((2, 3))) begins with these bytes; spaces and a newline pad the header so that the data
  // starts at a multiple of 64 bytes (here 128).
  const std::string encoded = encode_npy(matrix_to_npy(MatrixD(MatrixD::Zero(2, 3))));
  const std::string expected_header = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }";
  ASSERT_EQ(encoded.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_EQ(encoded.substr(10, expected_header.size()), expected_header);
  const std::size_t data_offset =
      10 + static_cast<unsigned char>(encoded[8]) + 256 * static_cast<unsigned char>(encoded[9]);
  EXPECT_EQ(data_offset, 128u);
  EXPECT_EQ(encoded[data_offset - 1], '\n');
  EXPECT_EQ(encoded.find_first_not_of(' ', 10 + expected_header.size()), data_offset - 1);
  EXPECT_EQ(encoded.size(), data_offset + 6 * 8);
  // One-dimensional shapes carry Python's trailing comma.
  EXPECT_THAT(encode_npy(vector_to_npy(VectorD(VectorD::Zero(5)))), HasSubstr("'shape': (5,), }"));
}

TEST(Npy, ReadsHeadersNumpyMayWrite) {
  // Version 2.0 (4-byte header length), keys in another order, double quotes, no trailing comma.
  const std::string header = R"({"shape": (2,), "fortran_order": False, "descr": "|u1"})";
  std::string bytes = std::string("\x93NUMPY\x02\x00", 8);
  const auto length = static_cast<std::uint32_t>(header.size());
  for (int k = 0; k < 4; ++k) bytes += static_cast<char>((length >> (8 * k)) & 0xFF);
  bytes += header + std::string("\x07\x09", 2);
  const NpyArray array = decode_npy(bytes, "v2.npy");
  EXPECT_EQ(array.dtype, NpyDtype::uint8);
  EXPECT_EQ(array.shape, std::vector<std::int64_t>{2});
  EXPECT_EQ(array.bytes, std::string("\x07\x09", 2));
}

// A valid one-row file, then variations that each break one thing.
std::string npy_with_header(const std::string& dictionary, const std::string& data, char major = 1) {
  std::string header = dictionary;
  header += '\n';
  std::string bytes = std::string("\x93NUMPY", 6) + major + '\0';
  bytes += static_cast<char>(header.size() & 0xFF);
  bytes += static_cast<char>(header.size() >> 8);
  return bytes + header + data;
}

TEST(Npy, ReadsNumpysDefaultIntegerDtypes) {
  const std::string data(16, '\0');
  const NpyArray wide =
      decode_npy(npy_with_header("{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }", data), "i8.npy");
  EXPECT_EQ(wide.dtype, NpyDtype::int64);
  EXPECT_EQ(wide.element_count(), 2);
  const NpyArray narrow =
      decode_npy(npy_with_header("{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }", data), "i4.npy");
  EXPECT_EQ(narrow.dtype, NpyDtype::int32);
  EXPECT_EQ(narrow.element_count(), 4);
  EXPECT_THAT([&] { decode_npy(npy_with_header("{'descr': '<i2', 'fortran_order': False, 'shape': (8,), }", data),
                               "i2.npy"); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("expected <f8, <f4, |u1, |b1, <i8 or <i4")));
}

TEST(Npy, RefusesMalformedFilesWithAClearMessage) {
  const std::string good = encode_npy(matrix_to_npy(MatrixD(MatrixD::Ones(2, 2))));
  ASSERT_EQ(decode_error(good), "");

  EXPECT_THAT(decode_error("PK\x03\x04 not npy"), HasSubstr("not an npy file"));
  EXPECT_THAT(decode_error(good.substr(0, 7)), HasSubstr("broken.npy"));
  EXPECT_THAT(decode_error(good.substr(0, 40)), HasSubstr("truncated npy header"));
  EXPECT_THAT(decode_error(good.substr(0, good.size() - 1)), HasSubstr("truncated npy data"));
  EXPECT_THAT(decode_error(good + "x"), HasSubstr("unexpected bytes"));

  std::string version_9 = good;
  version_9[6] = 9;
  EXPECT_THAT(decode_error(version_9), HasSubstr("version 9.0 is not supported"));

  const std::string eight_bytes(8, '\0');
  EXPECT_THAT(decode_error(npy_with_header("{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", eight_bytes)),
              HasSubstr("big-endian"));
  EXPECT_THAT(decode_error(npy_with_header("{'descr': '<u4', 'fortran_order': False, 'shape': (1,), }", eight_bytes)),
              HasSubstr("dtype '<u4' is not supported"));
  EXPECT_THAT(decode_error(npy_with_header("{'descr': '<f8', 'fortran_order': True, 'shape': (1, 1), }", eight_bytes)),
              HasSubstr("Fortran-order"));
  EXPECT_THAT(decode_error(npy_with_header("{'descr': '<f8', 'shape': (1,), }", eight_bytes)), HasSubstr("required"));
  EXPECT_THAT(
      decode_error(npy_with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'x': 1}", eight_bytes)),
      HasSubstr("unexpected or repeated key 'x'"));
  EXPECT_THAT(decode_error(npy_with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }", eight_bytes)),
              HasSubstr("malformed npy header"));
  EXPECT_THAT(decode_error(npy_with_header(
                  "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", eight_bytes)),
              HasSubstr("too large"));
  EXPECT_THAT(decode_error(npy_with_header("{'descr': '|b1', 'fortran_order': False, 'shape': (1,), }", "\x02")),
              HasSubstr("neither 0 nor 1"));
}

TEST(Npy, TypedAccessRefusesTheWrongDtypeOrRank) {
  const NpyArray floats = matrix_to_npy(MatrixF(MatrixF::Zero(2, 2)));
  EXPECT_THROW(npy_to_matrix<double>(floats, "f.npy"), InputError);
  EXPECT_THROW(npy_to_vector<float>(floats, "f.npy"), InputError);
  EXPECT_NO_THROW(npy_to_matrix<float>(floats, "f.npy"));
}

TEST(Npy, FileRoundTripAndMissingFile) {
  const testing::TemporaryDirectory directory;
  const NpyArray array = vector_to_npy(VectorF(VectorF::LinSpaced(7, -1.0f, 1.0f)));
  write_npy(directory / "v.npy", array);
  const NpyArray back = read_npy(directory / "v.npy");
  EXPECT_EQ(back.bytes, array.bytes);
  EXPECT_EQ(back.shape, array.shape);
  try {
    read_npy(directory / "missing.npy");
    FAIL() << "reading a missing file must throw";
  } catch (const InputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("missing.npy"));
  }
}

}  // namespace
}  // namespace rbmix
