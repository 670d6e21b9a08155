#pragma once
// Hamming distances between binary rows by popcount on bit-packed words, gathered as one histogram per query row:
// the form in which the ISL Parzen estimator (isl.hpp) needs them, since its kernel depends on a sample only
// through its Hamming distance to the query. Adding N reference rows to Q query rows of m units costs
// N × Q × ⌈m/64⌉ XOR-popcount words; the histograms hold every later evaluation at O(Q × m).
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "rbmix/core/types.hpp"

namespace rbmix {

// Binary rows packed 64 units per word: unit j is bit j mod 64 of word ⌊j/64⌋, padding bits are 0.
class PackedBinaryRows {
 public:
  // `source` names the rows in errors: a value other than 0 or 1 is an InputError.
  PackedBinaryRows(const BinaryMatrix& rows, const std::string& source);

  Eigen::Index rows() const { return rows_; }
  Eigen::Index units() const { return units_; }
  Eigen::Index words() const { return words_per_row_; }
  const std::uint64_t* row(Eigen::Index index) const { return words_.data() + index * words_per_row_; }

 private:
  Eigen::Index rows_;
  Eigen::Index units_;
  Eigen::Index words_per_row_;
  std::vector<std::uint64_t> words_;
};

// counts(q, d) = the number of reference rows added so far at Hamming distance d from query row q, d = 0 … m.
class DistanceHistograms {
 public:
  explicit DistanceHistograms(PackedBinaryRows queries);

  // Adds reference rows begin … end − 1 (same width as the queries). Query rows are split between threads and
  // the counts are integers, so the result does not depend on the thread count.
  void add(const PackedBinaryRows& references, Eigen::Index begin, Eigen::Index end);

  Eigen::Index queries() const { return queries_.rows(); }
  Eigen::Index units() const { return queries_.units(); }
  Eigen::Index references() const { return references_; }
  // The m + 1 counts of query row q.
  const std::uint32_t* counts(Eigen::Index query) const { return counts_.data() + query * (units() + 1); }

 private:
  PackedBinaryRows queries_;
  Eigen::Index references_ = 0;
  std::vector<std::uint32_t> counts_;
};

// The Hamming distance of two packed rows of `words` words.
inline int hamming_distance(const std::uint64_t* a, const std::uint64_t* b, Eigen::Index words) {
  int distance = 0;
  for (Eigen::Index word = 0; word < words; ++word) distance += std::popcount(a[word] ^ b[word]);
  return distance;
}

}  // namespace rbmix
