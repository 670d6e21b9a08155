#include "rbmix/training/binary_archive.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "rbmix/core/error.hpp"
#include "support/input_error_message.hpp"

namespace rbmix {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// Calls `action` and returns the InputError message it throws (fails the test if it throws nothing).
using testing::input_error_message;

MatrixD sample_matrix() {
  MatrixD matrix(2, 3);
  matrix << 1.5, -2.25, 3.0, 0.0, -0.0, 1e-300;
  return matrix;
}

// One record of every kind, in the order read_every_record reads them back.
std::string every_record() {
  BinaryWriter writer;
  writer.write_u64(42);
  writer.write_i64(-7);
  writer.write_f64(0.1);
  writer.write_string("fpcd");
  writer.write_stream(RandomStream(9, 1));
  writer.write_streams({RandomStream(9, 2), RandomStream(9, 3)});
  writer.write_matrix(sample_matrix());
  writer.write_matrix(MatrixF(sample_matrix().cast<float>()));
  writer.write_vector(VectorD(VectorD::LinSpaced(4, -1.0, 1.0)));
  writer.write_vector(VectorF(VectorF::LinSpaced(3, 0.0F, 2.0F)));
  return writer.bytes();
}

void read_every_record(BinaryReader& reader) {
  reader.read_u64();
  reader.read_i64();
  reader.read_f64();
  reader.read_string();
  reader.read_stream();
  reader.read_streams(2, "persistent chains");
  reader.read_matrix<double>(2, 3, "W");
  reader.read_matrix<float>(2, 3, "W");
  reader.read_vector<double>(4, "b");
  reader.read_vector<float>(3, "c");
}

TEST(BinaryArchive, EveryRecordRoundTrips) {
  BinaryReader reader(every_record(), "model.ckpt");
  EXPECT_EQ(reader.read_u64(), 42U);
  EXPECT_EQ(reader.read_i64(), -7);
  EXPECT_EQ(reader.read_f64(), 0.1);
  EXPECT_EQ(reader.read_string(), "fpcd");
  RandomStream expected_stream(9, 1);
  RandomStream stream = reader.read_stream();
  EXPECT_EQ(stream(), expected_stream());
  const std::vector<RandomStream> streams = reader.read_streams(2, "persistent chains");
  ASSERT_EQ(streams.size(), 2U);
  EXPECT_EQ(streams[0].state(), RandomStream(9, 2).state());
  EXPECT_EQ(streams[1].state(), RandomStream(9, 3).state());
  EXPECT_EQ(reader.read_matrix<double>(2, 3, "W"), sample_matrix());
  EXPECT_EQ(reader.read_matrix<float>(2, 3, "W"), MatrixF(sample_matrix().cast<float>()));
  EXPECT_EQ(reader.read_vector<double>(4, "b"), VectorD(VectorD::LinSpaced(4, -1.0, 1.0)));
  EXPECT_EQ(reader.read_vector<float>(3, "c"), VectorF(VectorF::LinSpaced(3, 0.0F, 2.0F)));
  EXPECT_TRUE(reader.at_end());
}

// Checkpoints are files: the layout is fixed little-endian 64-bit words, shapes before entries, rows in order.
TEST(BinaryArchive, LayoutIsLittleEndianWordsWithShapesFirst) {
  BinaryWriter writer;
  writer.write_u64(0x0807060504030201ULL);
  EXPECT_EQ(writer.bytes(), std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8));
  writer.write_matrix(MatrixD(MatrixD::Zero(1, 2)));
  EXPECT_EQ(writer.bytes().size(), 8U + 2 * 8U + 2 * sizeof(double));
  writer.write_matrix(MatrixF(MatrixF::Zero(3, 1)));
  EXPECT_EQ(writer.bytes().size(), 8U + (2 * 8U + 2 * sizeof(double)) + (2 * 8U + 3 * sizeof(float)));
  BinaryReader reader(writer.bytes(), "layout");
  reader.read_u64();
  EXPECT_EQ(reader.read_u64(), 1U);  // rows
  EXPECT_EQ(reader.read_u64(), 2U);  // cols
}

// The bit patterns that arithmetic would lose: signed zero, infinities, NaN, denormals, the extremes of u64/i64.
TEST(BinaryArchive, SpecialValuesRoundTripBitForBit) {
  const std::vector<double> doubles = {-0.0, std::numeric_limits<double>::infinity(),
                                       -std::numeric_limits<double>::infinity(),
                                       std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max()};
  BinaryWriter writer;
  for (double value : doubles) writer.write_f64(value);
  writer.write_f64(std::numeric_limits<double>::quiet_NaN());
  writer.write_u64(std::numeric_limits<std::uint64_t>::max());
  writer.write_i64(std::numeric_limits<std::int64_t>::min());
  writer.write_string(std::string("a\0b", 3));
  writer.write_string("");
  BinaryReader reader(writer.bytes(), "special");
  for (double value : doubles) {
    const double read = reader.read_f64();
    EXPECT_EQ(read, value);
    EXPECT_EQ(std::signbit(read), std::signbit(value));
  }
  EXPECT_TRUE(std::isnan(reader.read_f64()));
  EXPECT_EQ(reader.read_u64(), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(reader.read_i64(), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(reader.read_string(), std::string("a\0b", 3));
  EXPECT_EQ(reader.read_string(), "");
  EXPECT_TRUE(reader.at_end());
}

RC_GTEST_PROP(BinaryArchive, ArbitraryRecordsRoundTrip,
              (std::uint64_t word, std::int64_t signed_word, double real, std::string text)) {
  const int rows = *rc::gen::inRange(0, 5);
  const int cols = *rc::gen::inRange(0, 5);
  const auto entries =
      *rc::gen::container<std::vector<double>>(static_cast<std::size_t>(rows * cols), rc::gen::arbitrary<double>());
  const MatrixD matrix =
      rows * cols == 0 ? MatrixD(rows, cols) : MatrixD(Eigen::Map<const MatrixD>(entries.data(), rows, cols));
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  RandomStream stream(seed, 0);
  BinaryWriter writer;
  writer.write_u64(word);
  writer.write_i64(signed_word);
  writer.write_f64(real);
  writer.write_string(text);
  writer.write_matrix(matrix);
  writer.write_stream(stream);
  BinaryReader reader(writer.bytes(), "arbitrary");
  RC_ASSERT(reader.read_u64() == word);
  RC_ASSERT(reader.read_i64() == signed_word);
  const double read_real = reader.read_f64();
  RC_ASSERT((read_real == real || (std::isnan(read_real) && std::isnan(real))));
  RC_ASSERT(reader.read_string() == text);
  const MatrixD read_matrix = reader.read_matrix<double>(rows, cols, "M");
  for (Eigen::Index k = 0; k < matrix.size(); ++k)
    RC_ASSERT((read_matrix.data()[k] == matrix.data()[k] ||
               (std::isnan(read_matrix.data()[k]) && std::isnan(matrix.data()[k]))));
  RC_ASSERT(reader.read_stream().state() == stream.state());
  RC_ASSERT(reader.at_end());
}

// Every proper prefix of a valid checkpoint is refused with an InputError naming the file, never read as garbage.
TEST(BinaryArchive, EveryTruncationIsRefusedNamingTheFile) {
  const std::string complete = every_record();
  {
    BinaryReader reader(complete, "model.ckpt");
    ASSERT_NO_THROW(read_every_record(reader));
  }
  for (std::size_t length = 0; length < complete.size(); ++length) {
    BinaryReader reader(complete.substr(0, length), "model.ckpt");
    EXPECT_THAT(input_error_message([&] { read_every_record(reader); }),
                AllOf(HasSubstr("model.ckpt"), HasSubstr("truncated")))
        << "prefix of " << length << " of " << complete.size() << " bytes";
  }
}

// A damaged length field must not make the reader allocate or read past the end.
TEST(BinaryArchive, StringLongerThanTheFileIsTruncation) {
  BinaryWriter writer;
  writer.write_u64(std::numeric_limits<std::uint64_t>::max());
  writer.write_u64(0);
  BinaryReader reader(writer.bytes(), "damaged.ckpt");
  EXPECT_THAT(input_error_message([&] { reader.read_string(); }),
              AllOf(HasSubstr("damaged.ckpt"), HasSubstr("truncated")));
}

TEST(BinaryArchive, MatrixOfAnotherShapeIsRefusedNamingBothShapes) {
  BinaryWriter writer;
  writer.write_matrix(sample_matrix());
  BinaryReader reader(writer.bytes(), "model.ckpt");
  EXPECT_EQ(input_error_message([&] { reader.read_matrix<double>(3, 2, "weights"); }),
            "checkpoint model.ckpt: weights: expected a 3×2 matrix, found 2×3");
}

TEST(BinaryArchive, VectorOfAnotherLengthIsRefused) {
  BinaryWriter writer;
  writer.write_vector(VectorD(VectorD::Zero(4)));
  BinaryReader reader(writer.bytes(), "model.ckpt");
  EXPECT_EQ(input_error_message([&] { reader.read_vector<double>(5, "visible bias"); }),
            "checkpoint model.ckpt: visible bias: expected 5 entries, found 4");
}

TEST(BinaryArchive, WrongNumberOfStreamsIsRefused) {
  BinaryWriter writer;
  writer.write_streams({RandomStream(1, 0), RandomStream(1, 1), RandomStream(1, 2)});
  BinaryReader reader(writer.bytes(), "model.ckpt");
  EXPECT_EQ(input_error_message([&] { reader.read_streams(2, "persistent chains"); }),
            "checkpoint model.ckpt: persistent chains: expected 2 random streams, found 3");
}

// No seeded stream reaches xoshiro's all-zero fixed point, so an all-zero state can only be damage.
TEST(BinaryArchive, AllZeroStreamStateIsRefused) {
  BinaryWriter writer;
  for (int word = 0; word < 4; ++word) writer.write_u64(0);
  BinaryReader reader(writer.bytes(), "zeroed.ckpt");
  EXPECT_THAT(input_error_message([&] { reader.read_stream(); }),
              AllOf(HasSubstr("zeroed.ckpt"), HasSubstr("all zero")));
}

TEST(BinaryArchive, FailThrowsInputErrorNamingTheFile) {
  const BinaryReader reader("", "run/model.ckpt");
  EXPECT_EQ(input_error_message([&] { reader.fail("unknown format version 9"); }),
            "checkpoint run/model.ckpt: unknown format version 9");
}

TEST(BinaryArchive, AtEndOnlyAfterTheLastByte) {
  BinaryWriter writer;
  writer.write_u64(1);
  writer.write_u64(2);
  BinaryReader reader(writer.bytes(), "two words");
  EXPECT_FALSE(reader.at_end());
  reader.read_u64();
  EXPECT_FALSE(reader.at_end());
  reader.read_u64();
  EXPECT_TRUE(reader.at_end());
}

}  // namespace
}  // namespace rbmix
