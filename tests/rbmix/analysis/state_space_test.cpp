#include "rbmix/analysis/state_space.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>

#include "rbmix/verify/generators.hpp"
#include "support/brute_force.hpp"
#include "support/input_error_message.hpp"

namespace rbmix::analysis {
namespace {

using ::testing::HasSubstr;

// Library energies in double against term-by-term long double sums of at most 4 + 4·4 terms of size ≤ 3·4.
constexpr double kEnergyTolerance = 1e-12;
// Probabilities of at most 2^8 states from energies of that accuracy: relative errors ≈ 1e-12 of numbers ≤ 1.
constexpr double kProbabilityTolerance = 1e-12;

using testing::input_error_message;

TEST(JointStateSpace, CountsStatesOfEachLayerAndBoth) {
  const JointStateSpace space(3, 2);
  EXPECT_EQ(space.n_visible(), 3);
  EXPECT_EQ(space.n_hidden(), 2);
  EXPECT_EQ(space.visible_states(), 8U);
  EXPECT_EQ(space.hidden_states(), 4U);
  EXPECT_EQ(space.size(), 32U);
  const JointStateSpace from_model(Rbm(5, 4));
  EXPECT_EQ(from_model.n_visible(), 5);
  EXPECT_EQ(from_model.n_hidden(), 4);
}

// x = v + 2^m·h: with m = 3, v = 5 (units 0 and 2 on) and h = 2 (unit 1 on) is x = 5 + 8·2 = 21.
TEST(JointStateSpace, IndexIsVisiblePlusTwoToTheMTimesHidden) {
  const JointStateSpace space(3, 2);
  EXPECT_EQ(space.index(5, 2), 21U);
  EXPECT_EQ(space.visible_part(21), 5U);
  EXPECT_EQ(space.hidden_part(21), 2U);
  EXPECT_EQ(space.index(0, 0), 0U);
  EXPECT_EQ(space.index(7, 3), 31U);
}

RC_GTEST_PROP(JointStateSpace, IndexAndPartsAreInverse, ()) {
  const int m = *rc::gen::inRange(1, 14);
  const int n = *rc::gen::inRange(1, 27 - m);
  const JointStateSpace space(m, n);
  const auto joint = *rc::gen::inRange<std::uint64_t>(0, space.size());
  const std::uint64_t v = space.visible_part(joint), h = space.hidden_part(joint);
  RC_ASSERT(v < space.visible_states());
  RC_ASSERT(h < space.hidden_states());
  RC_ASSERT(space.index(v, h) == joint);
  RC_ASSERT(v + (h << m) == joint);
}

TEST(JointStateSpace, BitsAreLittleEndianUnits) {
  EXPECT_EQ(JointStateSpace::bit(0b0110, 0), 0.0);
  EXPECT_EQ(JointStateSpace::bit(0b0110, 1), 1.0);
  EXPECT_EQ(JointStateSpace::bit(0b0110, 2), 1.0);
  EXPECT_EQ(JointStateSpace::bit(0b0110, 3), 0.0);
  EXPECT_EQ(JointStateSpace::bits(0b0110, 5), (VectorD(5) << 0, 1, 1, 0, 0).finished());
}

TEST(JointStateSpace, RefusesEmptyLayersAndTooManyUnits) {
  EXPECT_THAT(input_error_message([] { JointStateSpace(0, 3); }), HasSubstr("at least one unit"));
  EXPECT_THAT(input_error_message([] { JointStateSpace(3, 0); }), HasSubstr("at least one unit"));
  EXPECT_EQ(input_error_message([] { JointStateSpace(14, 13); }),
            "joint state space: 27 units give 2^27 joint states; at most 2^26 are supported");
  EXPECT_NO_THROW(JointStateSpace(13, 13));
}

RC_GTEST_PROP(JointStateSpace, EnergiesInIndexOrderMatchTheDefinition, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(4, 3.0);
  const JointStateSpace space(rbm);
  const VectorD energies = space.energies(rbm);
  RC_ASSERT(static_cast<std::uint64_t>(energies.size()) == space.size());
  for (std::uint64_t v = 0; v < space.visible_states(); ++v)
    for (std::uint64_t h = 0; h < space.hidden_states(); ++h) {
      const auto expected = static_cast<double>(
          testing::brute_force_energy(rbm, testing::bits_of(v, rbm.n_visible()), testing::bits_of(h, rbm.n_hidden())));
      RC_ASSERT(std::abs(energies[static_cast<Eigen::Index>(v + (h << rbm.n_visible()))] - expected) <
                kEnergyTolerance);
    }
}

// π(x) = e^{−E(x)}/Z with Z by brute force, and its visible marginal against the brute-force p(v).
RC_GTEST_PROP(JointStateSpace, StationaryDistributionIsTheBoltzmannDistribution, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(4, 3.0);
  const JointStateSpace space(rbm);
  const VectorD pi = space.stationary_distribution(rbm);
  const long double log_partition = testing::brute_force_log_partition(rbm);
  VectorD marginal = VectorD::Zero(static_cast<Eigen::Index>(space.visible_states()));
  for (std::uint64_t x = 0; x < space.size(); ++x) {
    const long double energy =
        testing::brute_force_energy(rbm, testing::bits_of(space.visible_part(x), rbm.n_visible()),
                                    testing::bits_of(space.hidden_part(x), rbm.n_hidden()));
    const auto expected = static_cast<double>(std::exp(-energy - log_partition));
    RC_ASSERT(std::abs(pi[static_cast<Eigen::Index>(x)] - expected) < kProbabilityTolerance);
    marginal[static_cast<Eigen::Index>(space.visible_part(x))] += pi[static_cast<Eigen::Index>(x)];
  }
  RC_ASSERT((marginal - testing::brute_force_visible_marginal(rbm)).cwiseAbs().maxCoeff() < kProbabilityTolerance);
}

TEST(JointStateSpace, ZeroModelIsUniform) {
  const JointStateSpace space(3, 2);
  const VectorD pi = space.stationary_distribution(Rbm(3, 2));
  for (Eigen::Index x = 0; x < pi.size(); ++x) EXPECT_DOUBLE_EQ(pi[x], 1.0 / 32);
}

// Energies of ±1000 would overflow e^{−E}; by log-sum-exp the distribution is still exact. One visible and one hidden
// unit with w = 1000, b = c = −500: E(1, 1) = −1000 + 1000 = 0, E(1, 0) = E(0, 1) = 500, E(0, 0) = 0, so π puts
// half on (0, 0) and half on (1, 1), and e^{−500} on the others.
TEST(JointStateSpace, StationaryDistributionSurvivesHugeEnergies) {
  Rbm rbm(1, 1);
  rbm.weights << 1000.0;
  rbm.visible_bias << -500.0;
  rbm.hidden_bias << -500.0;
  const VectorD pi = JointStateSpace(rbm).stationary_distribution(rbm);
  ASSERT_TRUE(pi.allFinite());
  EXPECT_DOUBLE_EQ(pi[0], 0.5);
  EXPECT_DOUBLE_EQ(pi[3], 0.5);
  EXPECT_NEAR(pi[1], 0.5 * std::exp(-500.0), 1e-15 * std::exp(-500.0));
  EXPECT_NEAR(pi[2], 0.5 * std::exp(-500.0), 1e-15 * std::exp(-500.0));
}

TEST(JointStateSpace, RefusesEnergiesThatAreNotFinite) {
  Rbm rbm(2, 1);
  // Each parameter is finite but their sum, −E(1, 1), overflows.
  rbm.weights.setConstant(std::numeric_limits<double>::max());
  EXPECT_THAT(input_error_message([&] { JointStateSpace(rbm).stationary_distribution(rbm); }),
              HasSubstr("not all finite"));
}

TEST(JointStateSpace, RefusesAModelOfAnotherShape) {
  const JointStateSpace space(3, 2);
  EXPECT_THAT(input_error_message([&] { space.energies(Rbm(2, 3)); }), HasSubstr("shape differs"));
}

}  // namespace
}  // namespace rbmix::analysis
