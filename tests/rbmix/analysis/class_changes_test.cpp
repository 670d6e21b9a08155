#include "rbmix/analysis/class_changes.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "rbmix/core/error.hpp"

namespace rbmix::analysis {
namespace {

constexpr int unknown = ambiguous_class;

TEST(CountClassChanges, SkipsAmbiguousSamples) {
  EXPECT_EQ(count_class_changes({0, unknown, 0, unknown, 1, 1, unknown, 0}), 2U);
  EXPECT_EQ(count_class_changes({2, 2, 2}), 0U);
  EXPECT_EQ(count_class_changes({}), 0U);
  EXPECT_EQ(count_class_changes({unknown, unknown}), 0U);
  EXPECT_EQ(count_class_changes({0, 1, 0, 1}), 3U);
  // An ambiguous sample between two of the same class hides no change.
  EXPECT_EQ(count_class_changes({3, unknown, 3}), 0U);
}

TEST(FirstClassChange, IsTheIndexOfTheFirstDifferentUnambiguousSample) {
  EXPECT_EQ(first_class_change({0, 0, unknown, 1, 0}), std::optional<std::size_t>(3));
  EXPECT_EQ(first_class_change({unknown, 2, 2, 1}), std::optional<std::size_t>(3));
  EXPECT_EQ(first_class_change({1, 1, 1}), std::nullopt);
  EXPECT_EQ(first_class_change({unknown}), std::nullopt);
}

RC_GTEST_PROP(CountClassChanges, EqualsChangesOfTheSequenceWithoutAmbiguousEntries, ()) {
  const auto classes = *rc::gen::container<std::vector<int>>(rc::gen::inRange(-1, 4));
  std::vector<int> kept;
  for (const int c : classes)
    if (c != unknown) kept.push_back(c);
  std::size_t expected = 0;
  for (std::size_t i = 1; i < kept.size(); ++i) expected += kept[i] != kept[i - 1] ? 1 : 0;
  RC_ASSERT(count_class_changes(classes) == expected);
}

TEST(NearestModeClasses, PicksTheNearestModeAndMarksTies) {
  MatrixD modes(2, 4);
  modes << 1, 1, 0, 0,  //
      0, 0, 1, 1;
  MatrixD samples(4, 4);
  samples << 1, 1, 0, 0,  // mode 0 itself
      1, 0, 1, 1,         // distance 3 to mode 0, 1 to mode 1
      1, 0, 1, 0,         // distance 2 to both: ambiguous
      0, 0, 0, 0;         // distance 2 to both: ambiguous
  EXPECT_EQ(nearest_mode_classes(samples, modes), (std::vector<int>{0, 1, unknown, unknown}));
}

TEST(NearestModeClasses, RejectsMismatchedOrNonBinaryInput) {
  const MatrixD modes = MatrixD::Zero(2, 4);
  EXPECT_THROW(nearest_mode_classes(MatrixD::Zero(1, 3), modes), InputError);
  EXPECT_THROW(nearest_mode_classes(MatrixD::Constant(1, 4, 0.5), modes), InputError);
}

}  // namespace
}  // namespace rbmix::analysis
