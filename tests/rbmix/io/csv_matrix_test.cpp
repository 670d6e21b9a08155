#include "rbmix/io/csv_matrix.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <sstream>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

MatrixD read(std::string_view text) { return npy_to_matrix<double>(decode_csv_matrix(text, "t.csv"), "t.csv"); }

// The exact bits of every double survive printing with max_digits10 and reading back: CSV loses nothing a .npy
// file would keep.
TEST(CsvMatrix, RoundTripsDoublesWrittenAtFullPrecision) {
  MatrixD values(3, 2);
  values << 0.0, 1.0, 0.1, -2.5e-300, 1.0 / 3.0, std::numeric_limits<double>::max();
  std::ostringstream text;
  text.precision(std::numeric_limits<double>::max_digits10);
  for (Eigen::Index row = 0; row < values.rows(); ++row) text << values(row, 0) << ',' << values(row, 1) << '\n';
  const NpyArray array = decode_csv_matrix(text.str(), "t.csv");
  EXPECT_EQ(array.dtype, NpyDtype::float64);
  EXPECT_EQ(array.shape, (std::vector<std::int64_t>{3, 2}));
  EXPECT_EQ(npy_to_matrix<double>(array, "t.csv"), values);
}

TEST(CsvMatrix, SkipsAHeaderOfNamesAndTolerantOfLayout) {
  MatrixD expected(2, 3);
  expected << 1, 0, 1, 0, 0.5, 1;
  EXPECT_EQ(read("x1,x2,x3\n1,0,1\n0,0.5,1\n"), expected);
  EXPECT_EQ(read("\xEF\xBB\xBF\"a\", b ,c\r\n 1 ,\t0,+1\r\n0,5e-1,1"), expected);
  EXPECT_EQ(read("1,0,1\n0,0.5,1\n\n\n"), expected);
}

TEST(CsvMatrix, RefusesEveryMalformedInputNamingLineAndColumn) {
  const auto refuses = [](std::string_view text, const std::string& message) {
    EXPECT_THAT([&] { decode_csv_matrix(text, "t.csv"); }, ThrowsMessage<InputError>(HasSubstr(message))) << text;
  };
  refuses("", "t.csv: the CSV file holds no rows (it is empty)");
  refuses("\n \n", "holds no rows");
  refuses("a,b\n", "a header line but no rows");
  refuses("1,0\n1,0,1\n", "t.csv: line 2, column 3: the row has 3 fields but line 1 has 2 (ragged rows)");
  refuses("a,b\n1\n", "line 2, column 2: the row has 1 fields but line 1 has 2");
  refuses("1,0\n1,x\n", "line 2, column 2: the field is 'x', not a number");
  refuses("1,a\n", "line 1, column 2: the field is 'a', not a number");
  refuses("1,0\n1,,\n", "line 2, column 3");
  refuses("1,0\n1,\n", "line 2, column 2: the field is empty");
  refuses("1,0\n\n1,0\n", "line 2, column 1: the line is empty, between rows");
  refuses("1,nan\n", "line 1, column 2: the field is NaN");
  refuses("inf,1\n", "line 1, column 1: the field is an infinity");
  refuses("1,1e999\n", "line 1, column 2: the field is '1e999', outside the range of a double");
  refuses("1,0x10\n", "line 1, column 2: the field is '0x10', not a number");
  refuses("1;0\n1;1\n", "line 2, column 1: the field is '1;1', not a number");  // line 1 reads as a header
  // A first line with an empty field is no header (names are never empty): it is read, and refused, as a row.
  refuses(",\n1,0\n", "line 1, column 1: the field is empty");
  refuses("a,\n1,0\n", "line 1, column 1: the field is 'a', not a number");
}

}  // namespace
}  // namespace rbmix
