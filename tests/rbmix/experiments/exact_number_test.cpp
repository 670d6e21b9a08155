#include "rbmix/experiments/exact_number.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
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

TEST(ExactNumber, DiagnosticsKeepEveryFieldAndBit) {
  analysis::MixingDiagnostics diagnostics;
  diagnostics.steps = 5000;
  diagnostics.chains = 16;
  diagnostics.potential_scale_reduction = 1.0 + 1.0 / 3.0;
  diagnostics.bulk_effective_sample_size = std::nan("");
  diagnostics.tail_effective_sample_size = 1234.5678;
  diagnostics.estimates = {{"adaptive_window", 6.5, 6.1, 6.9, 33, true, ""},
                           {"batch_means", 11.1, 9.0, 13.2, 292, false, "wide interval"}};
  diagnostics.signals = {{"", 1.0 / 7.0, 1.0 / 11.0, 0.05, 0.0, std::nan("")},
                         {"no window", 2.0, 3.0, 0.19, 4.0 / 3.0, 12.5}};
  const analysis::MixingDiagnostics restored =
      read_exact_diagnostics(nlohmann::json::parse(exact_diagnostics(diagnostics).dump()));
  EXPECT_EQ(restored.steps, 5000);
  EXPECT_EQ(restored.chains, 16);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(restored.potential_scale_reduction),
            std::bit_cast<std::uint64_t>(diagnostics.potential_scale_reduction));
  EXPECT_TRUE(std::isnan(restored.bulk_effective_sample_size));
  EXPECT_EQ(restored.tail_effective_sample_size, diagnostics.tail_effective_sample_size);
  ASSERT_EQ(restored.estimates.size(), 2u);
  ASSERT_EQ(restored.signals.size(), 2u);
  EXPECT_EQ(restored.estimates[1].warning, "wide interval");
  EXPECT_EQ(restored.estimates[1].cutoff, 292);
  EXPECT_EQ(restored.signals[1].method_warning, "no window");
  EXPECT_EQ(std::bit_cast<std::uint64_t>(restored.signals[0].potential_scale_reduction),
            std::bit_cast<std::uint64_t>(1.0 / 7.0));
  EXPECT_EQ(std::bit_cast<std::uint64_t>(restored.signals[0].length_in_times),
            std::bit_cast<std::uint64_t>(1.0 / 11.0));
  EXPECT_EQ(restored.signals[1].relative_half_width, 0.19);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(restored.signals[1].disagreement), std::bit_cast<std::uint64_t>(4.0 / 3.0));
  EXPECT_TRUE(std::isnan(restored.signals[0].batch_in_times));
  EXPECT_EQ(restored.signals[1].batch_in_times, 12.5);
  nlohmann::json one_signal_short = exact_diagnostics(diagnostics);
  one_signal_short["signals"].erase(1);
  EXPECT_THROW(read_exact_diagnostics(one_signal_short), InputError);
  nlohmann::json without_chains = exact_diagnostics(diagnostics);
  without_chains.erase("chains");
  EXPECT_THROW(read_exact_diagnostics(without_chains), InputError);
  nlohmann::json decimal_disagreement = exact_diagnostics(diagnostics);
  decimal_disagreement["signals"][0]["disagreement"] = 0.5;
  EXPECT_THROW(read_exact_diagnostics(decimal_disagreement), InputError);
}

// A journaled record holding a value that no run writes is refused naming the field by its path and saying what is
// wrong: an interval out of order or not holding the estimator's band, a trusted estimate without a finite time or
// with a warning, a negative cutoff, signals that are not one per estimate, a count that is no integer or out of range.
TEST(JournaledValue, RefusesADamagedFieldByItsPath) {
  analysis::MixingDiagnostics diagnostics;
  diagnostics.steps = 5000;
  diagnostics.chains = 16;
  diagnostics.estimates = {{"adaptive_window", 6.5, 6.1, 6.9, 33, true, "", 6.2, 6.8},
                           {"batch_means", 11.1, 9.0, 13.2, 292, false, "wide interval", 9.0, 13.2}};
  diagnostics.signals = {{"", 1.0, 200.0, 0.05, 0.0, 9.0}, {"", 1.0, 200.0, 0.19, 0.5, 26.0}};
  const nlohmann::json intact = exact_diagnostics(diagnostics);
  const auto refusal = [&](const std::function<void(nlohmann::json&)>& damage) {
    nlohmann::json damaged = intact;
    damage(damaged);
    try {
      read_exact_diagnostics(damaged);
    } catch (const InputError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal([](nlohmann::json&) {}), "accepted");
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["estimates"][0]["upper"] = exact_number(6.0); }),
            "field 'estimates[0].upper': below its lower end");
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["estimates"][0]["band_lower"] = exact_number(6.0); }),
            "field 'estimates[0].band_lower': below the interval's lower end");
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["estimates"][0]["band_upper"] = exact_number(7.0); }),
            "field 'estimates[0].band_upper': above the interval's upper end");
  const std::string trusted =
      "field 'estimates[0].trusted': true for an estimate without a finite time and interval, "
      "or with a warning";
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["estimates"][0]["time"] = "nan"; }), trusted);
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["estimates"][0]["upper"] = "inf"; }), trusted);
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["estimates"][0]["warning"] = "wide interval"; }), trusted);
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["estimates"][1]["cutoff"] = -1; }),
            "field 'estimates[1].cutoff': -1 is out of range (at least 0)");
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["signals"].erase(1); }),
            "field 'signals': not one set of trust signals per estimate");
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["signals"][1].erase("nested"); }), "field 'signals[1]': no 'nested'");
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["chains"] = "16"; }), "field 'chains': \"16\" is not an integer");
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["steps"] = std::numeric_limits<std::uint64_t>::max(); }),
            "field 'steps': 18446744073709551615 is out of range (at least 0)");
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["estimates"] = nlohmann::json::object(); }),
            "field 'estimates': not a list");
  EXPECT_EQ(refusal([](nlohmann::json& j) { j = nlohmann::json::array(); }), "the result: not an object");
  const JournaledValue journaled(intact);
  try {
    journaled["estimates"].element(2);
    ADD_FAILURE() << "no third estimate, but no refusal";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "field 'estimates': not a list of more than 2 elements");
  }
}

// The readers of single values: a finite number, NaN only where missing is allowed, a range, a log-likelihood.
TEST(JournaledValue, ReadsEachKindOfNumberOrRefusesIt) {
  const nlohmann::json record = {
      {"nan", "nan"}, {"inf", "inf"}, {"minus_inf", "-inf"}, {"half", "0x1p-1"}, {"two", "0x1p+1"}};
  const JournaledValue json(record);
  const auto refusal = [](const std::function<double()>& read) {
    try {
      read();
    } catch (const InputError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  using Missing = JournaledValue::Missing;
  EXPECT_EQ(refusal([&] { return json["inf"].finite(); }), "field 'inf': inf is not a finite number");
  EXPECT_EQ(refusal([&] { return json["nan"].finite(); }), "field 'nan': nan is not a finite number");
  EXPECT_TRUE(std::isnan(json["nan"].finite_or_missing()));
  EXPECT_EQ(refusal([&] { return json["minus_inf"].finite_or_missing(); }),
            "field 'minus_inf': -inf is neither a finite number nor missing (nan)");
  EXPECT_EQ(json["half"].within(0.0, 1.0), 0.5);
  EXPECT_EQ(refusal([&] { return json["two"].within(0.0, 1.0); }), "field 'two': 0x1p+1 is outside [0, 1]");
  EXPECT_EQ(refusal([&] { return json["nan"].within(0.0, 1.0); }), "field 'nan': nan is not a finite number");
  EXPECT_TRUE(std::isnan(json["nan"].within(0.0, 1.0, Missing::allowed)));
  EXPECT_EQ(json["two"].at_least(2.0), 2.0);
  EXPECT_EQ(refusal([&] { return json["half"].at_least(1.0); }), "field 'half': 0x1p-1 is below 1");
  EXPECT_EQ(json["minus_inf"].log_likelihood(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(refusal([&] { return json["inf"].log_likelihood(); }),
            "field 'inf': inf is not a log-likelihood (finite, or -inf for a diverged model)");
  EXPECT_EQ(refusal([&] { return json["nan"].log_likelihood(); }),
            "field 'nan': nan is not a log-likelihood (finite, or -inf for a diverged model)");
  EXPECT_TRUE(std::isnan(json["nan"].log_likelihood(Missing::allowed)));
  EXPECT_EQ(refusal([&] { return json["absent"].number(); }), "the result: no 'absent'");
}

}  // namespace
}  // namespace rbmix::experiments
