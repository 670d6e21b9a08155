#include "rbmix/analysis/start_distribution.hpp"

#include <gtest/gtest.h>

#include "rbmix/data/datasets.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/verify/chi_squared.hpp"
#include "support/input_error_message.hpp"
#include "support/temporary_directory.hpp"
#include "support/tied_rbm.hpp"

namespace rbmix::analysis {
namespace {

// Draws of π₀ fall on the joint states as exact_start_distribution says, for every kind (χ² over the 32 states of
// the tied RBM, fixed seed; false-failure rate 1e-6 over the four tests, Bonferroni).
TEST(StartDistribution, DrawsFollowTheExactStartDistribution) {
  const Rbm rbm = testing::tied_rbm();
  const JointStateSpace space(rbm);
  MatrixD rows(3, 3);
  rows << 1, 0, 1, 0, 0, 0, 1, 1, 0;
  const std::vector<StartDistribution> starts{parse_start_distribution("zeros"),
                                              parse_start_distribution("ones"),
                                              parse_start_distribution("uniform"),
                                              {StartDistribution::Kind::data, rows, "rows"}};
  RandomStream stream(11, 0);
  for (const StartDistribution& start : starts) {
    std::vector<std::uint64_t> counts(space.size(), 0);
    VectorD visible(3), hidden(2);
    for (int draw = 0; draw < 60000; ++draw) {
      draw_start_state(start, rbm, 0.7, stream, visible.data(), hidden.data());
      std::uint64_t v = 0, h = 0;
      for (int j = 0; j < 3; ++j) v |= static_cast<std::uint64_t>(visible[j]) << j;
      for (int i = 0; i < 2; ++i) h |= static_cast<std::uint64_t>(hidden[i]) << i;
      ++counts[space.index(v, h)];
    }
    const VectorD exact = exact_start_distribution(start, rbm, 0.7);
    EXPECT_NEAR(exact.sum(), 1.0, 1e-12);
    EXPECT_GT(verify::chi_squared_p_value(counts, exact), 1e-6 / 4) << to_string(start);
  }
}

TEST(StartDistribution, ReadsDataRowsAndRefusesWhatItCannotUse) {
  const testing::TemporaryDirectory directory;
  const std::filesystem::path file = directory.path() / "rows.npy";
  BinaryMatrix rows(2, 3);
  rows << 1, 0, 1, 0, 1, 1;
  save_binary_matrix(file, rows);
  const StartDistribution start = parse_start_distribution("data:" + file.string());
  EXPECT_EQ(start.kind, StartDistribution::Kind::data);
  EXPECT_EQ(start.data_rows, to_real(rows));
  EXPECT_EQ(to_string(start), "data:" + file.string());
  EXPECT_NO_THROW(validate_start_distribution(start, testing::tied_rbm()));
  EXPECT_NE(testing::input_error_message([&] { validate_start_distribution(start, Rbm(4, 2)); }).find("4 visible"),
            std::string::npos);
  EXPECT_NE(testing::input_error_message([] { parse_start_distribution("random"); }).find("'random'"),
            std::string::npos);
  EXPECT_NE(testing::input_error_message([] { parse_start_distribution("data:"); }).find("data:FILE"),
            std::string::npos);
  EXPECT_NE(testing::input_error_message([&] {
              parse_start_distribution("data:" + (directory.path() / "none.npy").string());
            }).find("none.npy"),
            std::string::npos);
}

}  // namespace
}  // namespace rbmix::analysis
