#include "rbmix/sampling/zero_temperature_map.hpp"

#include <gtest/gtest.h>

#include "rbmix/core/error.hpp"
#include "rbmix/training/test_models.hpp"

namespace rbmix {
namespace {

constexpr Eigen::Index kGenerousCap = 10000;

// One more application of the map from (x, h) changes nothing.
bool is_fixed_point(const Rbm& rbm, const RowVector<double>& visible, const RowVector<double>& hidden) {
  RowVector<double> x = visible, h = hidden;
  const FixedPointSearch search = descend_to_fixed_point(rbm, x, h, 1);
  return search.reached && x == visible && h == hidden;
}

TEST(ZeroTemperatureMap, ReachesAFixedPointFromEveryStartOfManyModels) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const Rbm rbm = testing::random_rbm(12, 9, 3.0, seed);
    RowVector<double> visible = testing::random_binary_rows(1, 12, seed).row(0);
    RowVector<double> hidden = RowVector<double>::Zero(9);
    const FixedPointSearch search = descend_to_fixed_point(rbm, visible, hidden, kGenerousCap);
    ASSERT_TRUE(search.reached) << "model " << seed;
    EXPECT_TRUE(is_fixed_point(rbm, visible, hidden)) << "model " << seed;
  }
}

TEST(ZeroTemperatureMap, ReportsTheCap) {
  // From x = 0 the first iteration switches the hidden unit and then visible unit 0 on: not yet known to be a
  // fixed point, so a cap of one iteration is hit.
  Rbm rbm(2, 1);
  rbm.weights << 2.0, -1.0;
  rbm.visible_bias << -1.0, 0.5;
  rbm.hidden_bias << 0.5;
  RowVector<double> visible = RowVector<double>::Zero(2), hidden = RowVector<double>::Zero(1);
  const FixedPointSearch capped = descend_to_fixed_point(rbm, visible, hidden, 1);
  EXPECT_FALSE(capped.reached);
  EXPECT_EQ(capped.iterations, 1);
  const FixedPointSearch resumed = descend_to_fixed_point(rbm, visible, hidden, kGenerousCap);
  EXPECT_TRUE(resumed.reached);
  EXPECT_EQ(resumed.iterations, 1);  // (x, h) = ((1, 0), 1) was already the fixed point
  EXPECT_EQ(visible, (RowVector<double>(2) << 1.0, 0.0).finished());
}

TEST(ZeroTemperatureMap, TiesSwitchUnitsOff) {
  // W = 0, b = c = 0: every input is exactly 0, so the all-ones state goes to all zeros in one iteration and the
  // second confirms the fixed point.
  const Rbm rbm(3, 2);
  RowVector<double> visible = RowVector<double>::Ones(3), hidden = RowVector<double>::Ones(2);
  const FixedPointSearch search = descend_to_fixed_point(rbm, visible, hidden, kGenerousCap);
  EXPECT_TRUE(search.reached);
  EXPECT_EQ(search.iterations, 2);
  EXPECT_TRUE(visible.isZero());
  EXPECT_TRUE(hidden.isZero());
}

TEST(ZeroTemperatureMap, RefusesAZeroCapAndMismatchedLayers) {
  const Rbm rbm(3, 2);
  RowVector<double> visible = RowVector<double>::Zero(3), hidden = RowVector<double>::Zero(2);
  EXPECT_THROW(descend_to_fixed_point(rbm, visible, hidden, 0), InputError);
  RowVector<double> short_visible = RowVector<double>::Zero(2);
  EXPECT_THROW(descend_to_fixed_point(rbm, short_visible, hidden, 5), InputError);
}

}  // namespace
}  // namespace rbmix
