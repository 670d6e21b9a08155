#include "rbmix/experiments/exact_number.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {
namespace {

// Through JSON text and back, every double keeps its bits: the tables a grid writes from journaled results are
// then byte-identical to those of a run that kept them in memory.
TEST(ExactNumber, RestoresEveryBitThroughJsonText) {
  const double values[] = {0.0,
                           -0.0,
                           0.1,
                           1.0 / 3.0,
                           -2.718281828459045,
                           std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity()};
  for (const double value : values) {
    const nlohmann::json text = nlohmann::json::parse(nlohmann::json(exact_number(value)).dump());
    EXPECT_EQ(std::bit_cast<std::uint64_t>(read_exact_number(text)), std::bit_cast<std::uint64_t>(value)) << value;
  }
  EXPECT_TRUE(std::isnan(read_exact_number(exact_number(std::numeric_limits<double>::quiet_NaN()))));
}

TEST(ExactNumber, RefusesWhatItDidNotWrite) {
  EXPECT_THROW(read_exact_number(nlohmann::json(0.5)), InputError);
  EXPECT_THROW(read_exact_number(nlohmann::json("0x1p-1 and more")), InputError);
  EXPECT_THROW(read_exact_number(nlohmann::json("")), InputError);
  // Text exact_number never writes: a decimal, one out of a double's range (strtod's ±infinity), a prefix alone.
  for (const char* text : {"1.5", "1e999", "0x1p+99999", "-0x1p+99999", "0x", "0x1.80p+1", " 0x1p+0", "infinity"})
    EXPECT_THROW(read_exact_number(nlohmann::json(text)), InputError) << text;
}

// A model travels between phases of a grid (trained in one, measured in the next) as exact matrices and vectors.
TEST(ExactNumber, MatricesAndVectorsKeepTheirShapeAndBits) {
  MatrixD matrix(2, 3);
  matrix << 0.1, -0.0, 1.0 / 3.0, 2.5e-300, -7.0, 1e300;
  const MatrixD restored = read_exact_matrix(nlohmann::json::parse(exact_matrix(matrix).dump()));
  ASSERT_EQ(restored.rows(), 2);
  ASSERT_EQ(restored.cols(), 3);
  for (Eigen::Index index = 0; index < matrix.size(); ++index)
    EXPECT_EQ(std::bit_cast<std::uint64_t>(restored.data()[index]), std::bit_cast<std::uint64_t>(matrix.data()[index]));
  const VectorD vector = VectorD::LinSpaced(4, -1.0, 0.7);
  EXPECT_EQ(read_exact_vector(exact_vector(vector)), vector);
  EXPECT_EQ(read_exact_matrix(exact_matrix(MatrixD(0, 784))).cols(), 784);
  EXPECT_THROW(read_exact_vector(exact_matrix(matrix)), InputError);
  nlohmann::json short_of_values = exact_matrix(matrix);
  short_of_values["values"].erase(0);
  EXPECT_THROW(read_exact_matrix(short_of_values), InputError);
}

// A model travels whole: W, both biases, every bit; biases that do not fit W are refused.
TEST(ExactNumber, RbmsKeepEveryParameter) {
  Rbm rbm(3, 2);
  rbm.weights << 0.1, -1.0 / 3.0, 2.0, 1e-300, -0.0, 7.5;
  rbm.visible_bias << 1.0, 2.0, 3.0;
  rbm.hidden_bias << -1.0, std::nextafter(1.0, 2.0);
  const Rbm restored = read_exact_rbm(nlohmann::json::parse(exact_rbm(rbm).dump()));
  EXPECT_TRUE(restored.weights == rbm.weights);
  EXPECT_TRUE(restored.visible_bias == rbm.visible_bias);
  EXPECT_TRUE(restored.hidden_bias == rbm.hidden_bias);
  nlohmann::json misfit = exact_rbm(rbm);
  misfit["hidden_bias"] = exact_vector(VectorD::Zero(3));
  EXPECT_THROW(read_exact_rbm(misfit), InputError);
  EXPECT_THROW(read_exact_rbm(nlohmann::json::array()), InputError);
}

TEST(ExactNumber, BytesTravelAsHexadecimalText) {
  const std::vector<std::uint8_t> bytes{0, 1, 15, 16, 127, 128, 254, 255};
  EXPECT_EQ(hex_bytes(bytes), "00010f107f80feff");
  EXPECT_EQ(read_hex_bytes(nlohmann::json(hex_bytes(bytes))), bytes);
  EXPECT_TRUE(read_hex_bytes(nlohmann::json("")).empty());
  for (const char* text : {"0", "0g", "0F", " 00", "zz"})
    EXPECT_THROW(read_hex_bytes(nlohmann::json(text)), InputError) << text;
  EXPECT_THROW(read_hex_bytes(nlohmann::json(5)), InputError);
}

// Autocorrelation-time estimates travel in the autocorr and modified-sweep journals; an undefined one (NaN) too.
TEST(ExactNumber, EstimatesKeepEveryFieldAndBit) {
  const analysis::IntegratedTimeEstimate estimate{
      "initial_monotone_sequence", 1.0 / 3.0, std::nan(""), 0.7, 42, false, "the pair sums stayed positive"};
  const analysis::IntegratedTimeEstimate restored =
      read_exact_estimate(nlohmann::json::parse(exact_estimate(estimate).dump()));
  EXPECT_EQ(restored.method, estimate.method);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(restored.time), std::bit_cast<std::uint64_t>(estimate.time));
  EXPECT_TRUE(std::isnan(restored.lower));
  EXPECT_EQ(restored.upper, estimate.upper);
  EXPECT_EQ(restored.cutoff, 42);
  EXPECT_FALSE(restored.trusted);
  EXPECT_EQ(restored.warning, estimate.warning);
  nlohmann::json without_cutoff = exact_estimate(estimate);
  without_cutoff.erase("cutoff");
  EXPECT_THROW(read_exact_estimate(without_cutoff), InputError);
  nlohmann::json decimal_time = exact_estimate(estimate);
  decimal_time["time"] = 0.5;
  EXPECT_THROW(read_exact_estimate(decimal_time), InputError);
}

}  // namespace
}  // namespace rbmix::experiments
