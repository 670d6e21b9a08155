#include "rbmix/training/parameter_initialisation.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix {
namespace {

using Biases = ParameterInitialisation::Biases;

TEST(ParameterInitialisation, NamesReadBackToTheSameChoice) {
  for (const char* text : {"base-rate", "zero", "normal:0.01", "normal:0.5"})
    EXPECT_EQ(to_string(parse_parameter_initialisation(text)), text);
  EXPECT_EQ(parse_parameter_initialisation("normal:0.01"), (ParameterInitialisation{Biases::normal, 0.01}));
  for (const char* bad : {"", "normal", "normal:", "normal:0", "normal:-1", "normal:nan", "normal:0.1x", "uniform:1"}) {
    try {
      parse_parameter_initialisation(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("--init"), std::string::npos) << error.what();
    }
  }
}

Rbm initial_model(const ParameterInitialisation& initialisation, const MatrixD& data) {
  TrainingOptions options;
  options.seed = 7;
  apply(initialisation, options);
  return Trainer(options, data, MatrixD(), 64).model();
}

// 003 §4.2's start: b and c drawn from N(0, S²) after the same W as the base-rate start. With 16 + 64 draws the
// sample standard deviation lies within 40 % of S unless something is far off (chance below 10^-6).
TEST(ParameterInitialisation, NormalDrawsTheBiasesAfterTheSameWeights) {
  constexpr double standard_deviation_tolerance = 0.4;
  const MatrixD data = to_real(shifting_bar(9, 1));  // pixel means 1/9: a base rate far from 0
  const Rbm base_rate = initial_model({}, data);
  const Rbm zero = initial_model({Biases::zero}, data);
  const Rbm normal = initial_model({Biases::normal, 0.01}, data);
  EXPECT_EQ(normal.weights, base_rate.weights);
  EXPECT_EQ(zero.weights, base_rate.weights);
  EXPECT_TRUE(zero.visible_bias.isZero());
  EXPECT_TRUE(base_rate.hidden_bias.isZero());
  EXPECT_FALSE(base_rate.visible_bias.isZero());
  VectorD biases(normal.visible_bias.size() + normal.hidden_bias.size());
  biases << normal.visible_bias, normal.hidden_bias;
  const double deviation = std::sqrt(biases.squaredNorm() / static_cast<double>(biases.size()));
  EXPECT_NEAR(deviation, 0.01, standard_deviation_tolerance * 0.01);
  EXPECT_NE(normal.visible_bias, normal.hidden_bias.head(normal.visible_bias.size()));
}

TEST(ParameterInitialisation, BaseRateAndNormalBiasesAreExclusive) {
  TrainingOptions options;
  apply({Biases::normal, 0.01}, options);
  EXPECT_NO_THROW(options.validate());
  options.base_rate_visible_bias = true;
  EXPECT_THROW(options.validate(), InputError);
}

}  // namespace
}  // namespace rbmix
