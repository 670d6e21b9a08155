#include "rbmix/analysis/coupled_rows.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "rbmix/verify/chi_squared.hpp"

namespace rbmix::analysis {
namespace {

// Two rows of a 4-state matrix: the coupled draws agree with probability Σ min(p, q) = 0.5, each chain's draws follow
// its own row (χ², fixed seed; false-failure rate 1e-6 over the three tests, Bonferroni), a state coupled with itself
// moves as one, and a single draw follows its row.
TEST(CoupledRows, MaximalCouplingOfTwoRows) {
  MatrixD matrix(3, 4);
  matrix << 0.1, 0.4, 0.3, 0.2,  //
      0.4, 0.0, 0.3, 0.3,        //
      0.25, 0.25, 0.25, 0.25;
  const double overlap = 0.1 + 0.0 + 0.3 + 0.2;
  RandomStream stream(5, 0);
  constexpr int draws = 200000;
  std::vector<std::uint64_t> first(4, 0), second(4, 0), alone(4, 0);
  int agreements = 0;
  for (int draw = 0; draw < draws; ++draw) {
    const auto [x, y] = draw_coupled_rows(matrix, 0, 1, stream);
    ++first[static_cast<std::size_t>(x)];
    ++second[static_cast<std::size_t>(y)];
    agreements += x == y;
    ++alone[static_cast<std::size_t>(draw_from_row(matrix, 2, stream))];
    const auto [u, v] = draw_coupled_rows(matrix, 2, 2, stream);
    ASSERT_EQ(u, v);
  }
  EXPECT_EQ(second[1], 0u) << "a draw where the row is 0";
  // 6 binomial standard deviations.
  EXPECT_NEAR(agreements / double(draws), overlap, 6 * std::sqrt(overlap * (1 - overlap) / draws));
  const double threshold = 1e-6 / 3;
  EXPECT_GT(verify::chi_squared_p_value(first, matrix.row(0).transpose()), threshold);
  EXPECT_GT(verify::chi_squared_p_value(second, matrix.row(1).transpose()), threshold);
  EXPECT_GT(verify::chi_squared_p_value(alone, matrix.row(2).transpose()), threshold);
}

}  // namespace
}  // namespace rbmix::analysis
