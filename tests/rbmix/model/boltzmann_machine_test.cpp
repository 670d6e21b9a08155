#include "rbmix/model/boltzmann_machine.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "rbmix/core/error.hpp"
#include "support/boltzmann_machine_models.hpp"
#include "support/brute_force.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;

// Sums of a handful of O(1) products: only rounding separates the double and long double answers.
constexpr double kRoundingTolerance = 1e-12;

std::string validation_message(const BoltzmannMachine& model) {
  try {
    model.validate("test model");
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(BoltzmannMachine, ZerosIsValidAndUniform) {
  const BoltzmannMachine model = BoltzmannMachine::zeros(4);
  EXPECT_NO_THROW(model.validate("zeros"));
  EXPECT_EQ(model.negative_energy(VectorD::Ones(4)), 0.0);
  EXPECT_THROW(BoltzmannMachine::zeros(0), InputError);
}

TEST(BoltzmannMachine, NegativeEnergyCountsEachPairOnce) {
  BoltzmannMachine model = BoltzmannMachine::zeros(3);
  model.couplings(0, 1) = model.couplings(1, 0) = 2.0;
  model.couplings(1, 2) = model.couplings(2, 1) = -0.5;
  model.biases << 0.25, -1.0, 3.0;
  // x = (1, 1, 1): J_01 + J_12 + b_0 + b_1 + b_2 = 2 − 0.5 + 0.25 − 1 + 3.
  EXPECT_DOUBLE_EQ(model.negative_energy(VectorD::Ones(3)), 3.75);
  // x = (1, 0, 1): no coupled pair is on.
  EXPECT_DOUBLE_EQ(model.negative_energy((VectorD(3) << 1, 0, 1).finished()), 3.25);
}

TEST(BoltzmannMachine, NegativeEnergyMatchesBruteForce) {
  const BoltzmannMachine model = testing::random_boltzmann_machine(7, 2.0, 11);
  for (std::uint64_t index = 0; index < 128; ++index) {
    const Eigen::RowVectorXd state = testing::bits_of(index, 7);
    EXPECT_NEAR(model.negative_energy(state.transpose()),
                static_cast<double>(testing::brute_force_negative_energy(model, state)), kRoundingTolerance);
  }
}

TEST(BoltzmannMachine, ValidateNamesWhatIsWrong) {
  BoltzmannMachine model = BoltzmannMachine::zeros(3);
  model.couplings(0, 1) = 1.0;
  EXPECT_THAT(validation_message(model), HasSubstr("not symmetric"));
  model.couplings(1, 0) = 1.0;
  EXPECT_EQ(validation_message(model), "");
  model.couplings(2, 2) = 0.5;
  EXPECT_THAT(validation_message(model), HasSubstr("diagonal"));
  model.couplings(2, 2) = 0.0;
  model.biases(1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THAT(validation_message(model), HasSubstr("not finite"));
  model.biases = VectorD::Zero(2);
  EXPECT_THAT(validation_message(model), HasSubstr("test model: couplings are 3 × 3 but there are 2 biases"));
  EXPECT_THAT(validation_message(BoltzmannMachine{}), HasSubstr("no units"));
}

TEST(EmpiricalStatistics, HandComputedMoments) {
  BinaryMatrix data(4, 2);
  data << 1, 1, 1, 0, 0, 1, 0, 0;
  const BoltzmannMachineStatistics statistics = empirical_statistics(data, "data");
  EXPECT_EQ(statistics.means, (VectorD(2) << 0.5, 0.5).finished());
  EXPECT_EQ(statistics.second_moments, (MatrixD(2, 2) << 0.5, 0.25, 0.25, 0.5).finished());
}

TEST(EmpiricalStatistics, RefusesEmptyOrNonBinaryData) {
  EXPECT_THROW(empirical_statistics(BinaryMatrix(0, 3), "data"), InputError);
  BinaryMatrix data = BinaryMatrix::Zero(2, 2);
  data(1, 1) = 2;
  try {
    empirical_statistics(data, "training data");
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("training data: every entry must be 0 or 1"));
  }
}

TEST(StatisticsDifference, IsSymmetricWithZeroDiagonalAndKeepsTheModelValid) {
  MatrixD first(3, 2);
  first << 1, 0, 1, 1, 0, 1;
  MatrixD second(2, 2);
  second << 0, 0, 1, 1;
  const BoltzmannMachineGradient gradient =
      statistics_difference(empirical_statistics(first), empirical_statistics(second));
  EXPECT_EQ(gradient.couplings, (MatrixD(2, 2) << 0, 1.0 / 3 - 0.5, 1.0 / 3 - 0.5, 0).finished());
  EXPECT_EQ(gradient.biases, (VectorD(2) << 2.0 / 3 - 0.5, 2.0 / 3 - 0.5).finished());
  BoltzmannMachine model = testing::random_boltzmann_machine(2, 1.0, 3);
  apply_step(model, gradient, 0.37);
  EXPECT_NO_THROW(model.validate("stepped"));
}

}  // namespace
}  // namespace rbmix
