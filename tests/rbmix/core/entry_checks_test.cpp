#include "rbmix/core/entry_checks.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "rbmix/core/types.hpp"

namespace rbmix {
namespace {

// Values that are, or are close to being, 0 and 1 or the ends of [0, 1], and values no check may let through.
const std::vector<double>& candidate_values() {
  static const std::vector<double> values = {0.0,
                                             -0.0,
                                             1.0,
                                             0.5,
                                             std::nextafter(1.0, 2.0),
                                             std::nextafter(1.0, 0.0),
                                             std::numeric_limits<double>::denorm_min(),
                                             -std::numeric_limits<double>::denorm_min(),
                                             2.0,
                                             -1.0,
                                             std::numeric_limits<double>::infinity(),
                                             -std::numeric_limits<double>::infinity(),
                                             std::numeric_limits<double>::quiet_NaN()};
  return values;
}

// The verdicts entry by entry, the reference for the whole-matrix checks.
template <typename Derived>
bool binary_entry_by_entry(const Eigen::DenseBase<Derived>& values) {
  for (Eigen::Index row = 0; row < values.rows(); ++row)
    for (Eigen::Index col = 0; col < values.cols(); ++col)
      if (!(values(row, col) == 0 || values(row, col) == 1)) return false;
  return true;
}
template <typename Derived>
bool in_unit_interval_entry_by_entry(const Eigen::DenseBase<Derived>& values) {
  for (Eigen::Index row = 0; row < values.rows(); ++row)
    for (Eigen::Index col = 0; col < values.cols(); ++col)
      if (!(values(row, col) >= 0 && values(row, col) <= 1)) return false;
  return true;
}

// The whole-matrix checks agree with checking entry by entry, for any shape and any mix of the candidate values,
// in double and in float (where some candidates round to 0 or 1), on plain matrices and on parts of their rows.
RC_GTEST_PROP(EntryChecks, AgreeWithAnEntryByEntryCheck, ()) {
  const auto rows = *rc::gen::inRange<Eigen::Index>(0, 12);
  const auto cols = *rc::gen::inRange<Eigen::Index>(1, 40);
  // Mostly 0 and 1, so that matrices pass as well as fail.
  const auto picks = *rc::gen::container<std::vector<int>>(
      static_cast<std::size_t>(rows * cols),
      rc::gen::weightedOneOf<int>(
          {{30, rc::gen::inRange(0, 3)}, {1, rc::gen::inRange(0, static_cast<int>(candidate_values().size()))}}));
  MatrixD values(rows, cols);
  for (Eigen::Index k = 0; k < values.size(); ++k)
    values.data()[k] = candidate_values()[static_cast<std::size_t>(picks[static_cast<std::size_t>(k)])];
  RC_ASSERT(all_binary(values) == binary_entry_by_entry(values));
  RC_ASSERT(all_in_unit_interval(values) == in_unit_interval_entry_by_entry(values));
  const Matrix<float> in_float = values.cast<float>();
  RC_ASSERT(all_binary(in_float) == binary_entry_by_entry(in_float));
  RC_ASSERT(all_in_unit_interval(in_float) == in_unit_interval_entry_by_entry(in_float));
  if (rows > 0) {
    const Eigen::Index row = *rc::gen::inRange<Eigen::Index>(0, rows);
    const auto part = values.row(row).tail(cols / 2 + 1);
    RC_ASSERT(all_binary(part) == binary_entry_by_entry(part));
    RC_ASSERT(all_in_unit_interval(part) == in_unit_interval_entry_by_entry(part));
  }
}

TEST(EntryChecks, AnEmptyMatrixPassesBoth) {
  EXPECT_TRUE(all_binary(MatrixD(0, 5)));
  EXPECT_TRUE(all_in_unit_interval(VectorD(0)));
}

}  // namespace
}  // namespace rbmix
