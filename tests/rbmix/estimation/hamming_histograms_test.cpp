#include "rbmix/estimation/hamming_histograms.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include "rbmix/core/error.hpp"
#include "rbmix/training/test_models.hpp"

namespace rbmix {
namespace {

BinaryMatrix random_data(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed) {
  return testing::random_binary_rows(rows, cols, seed).cast<std::uint8_t>();
}

int direct_distance(const BinaryMatrix& a, Eigen::Index row_a, const BinaryMatrix& b, Eigen::Index row_b) {
  return static_cast<int>((a.row(row_a).array() != b.row(row_b).array()).count());
}

TEST(HammingHistograms, CountEveryDistanceLikeADoubleLoop) {
  // 130 units: three words, the last one mostly padding.
  for (const Eigen::Index units : {1, 63, 64, 65, 130}) {
    const BinaryMatrix queries = random_data(17, units, 1);
    const BinaryMatrix references = random_data(300, units, 2);
    DistanceHistograms histograms(PackedBinaryRows(queries, "queries"));
    const PackedBinaryRows packed(references, "references");
    histograms.add(packed, 0, 100);
    histograms.add(packed, 100, 300);  // in two pieces: the same as at once
    ASSERT_EQ(histograms.references(), 300);
    for (Eigen::Index q = 0; q < queries.rows(); ++q) {
      std::vector<std::uint32_t> expected(static_cast<std::size_t>(units + 1), 0);
      for (Eigen::Index r = 0; r < references.rows(); ++r) ++expected[direct_distance(queries, q, references, r)];
      EXPECT_EQ(std::vector<std::uint32_t>(histograms.counts(q), histograms.counts(q) + units + 1), expected)
          << units << " units, query " << q;
    }
  }
}

TEST(HammingHistograms, SameCountsWhateverTheThreadCount) {
  const BinaryMatrix queries = random_data(50, 100, 3);
  const PackedBinaryRows references(random_data(5000, 100, 4), "references");
  std::vector<std::vector<std::uint32_t>> runs;
  for (const int threads : {1, 2}) {
    omp_set_num_threads(threads);
    DistanceHistograms histograms(PackedBinaryRows(queries, "queries"));
    histograms.add(references, 0, references.rows());
    runs.emplace_back(histograms.counts(0), histograms.counts(0) + 50 * 101);
  }
  EXPECT_EQ(runs[0], runs[1]);
}

TEST(HammingHistograms, RefuseNonBinaryRowsOtherWidthsAndBadRanges) {
  BinaryMatrix two = random_data(3, 10, 5);
  two(2, 7) = 2;
  try {
    PackedBinaryRows packed(two, "grey.npy");
    FAIL() << "a 2 was packed";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("grey.npy"), std::string::npos);
  }
  DistanceHistograms histograms(PackedBinaryRows(random_data(3, 10, 5), "queries"));
  const PackedBinaryRows wider(random_data(3, 11, 6), "wider");
  EXPECT_THROW(histograms.add(wider, 0, 3), InputError);
  const PackedBinaryRows same(random_data(3, 10, 6), "same");
  EXPECT_THROW(histograms.add(same, 2, 4), InputError);
  EXPECT_THROW(histograms.add(same, 2, 1), InputError);
  EXPECT_THROW(PackedBinaryRows(BinaryMatrix(3, 0), "empty"), InputError);
}

}  // namespace
}  // namespace rbmix
