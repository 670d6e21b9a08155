#include "rbmix/data/split.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

BinaryMatrix numbered_rows(Eigen::Index rows) {
  BinaryMatrix data(rows, 1);
  for (Eigen::Index k = 0; k < rows; ++k) data(k, 0) = static_cast<std::uint8_t>(k);
  return data;
}

TEST(Split, FirstRowsAndRestInOrder) {
  const RowSplit split = split_rows(numbered_rows(6), 4);
  ASSERT_EQ(split.first.rows(), 4);
  ASSERT_EQ(split.rest.rows(), 2);
  EXPECT_EQ(split.first(3, 0), 3);
  EXPECT_EQ(split.rest(0, 0), 4);
  EXPECT_THROW(split_rows(numbered_rows(6), 7), InputError);
}

TEST(Split, ShuffleIsASeededPermutation) {
  const auto order = shuffled_row_order(100, 5);
  EXPECT_EQ(order, shuffled_row_order(100, 5));
  EXPECT_NE(order, shuffled_row_order(100, 6));
  auto sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (Eigen::Index k = 0; k < 100; ++k) EXPECT_EQ(sorted[static_cast<std::size_t>(k)], k);
  const BinaryMatrix shuffled = select_rows(numbered_rows(100), order);
  for (Eigen::Index k = 0; k < 100; ++k) EXPECT_EQ(shuffled(k, 0), order[static_cast<std::size_t>(k)]);
  EXPECT_THROW(select_rows(numbered_rows(3), {0, 3}), InputError);
}

}  // namespace
}  // namespace rbmix
