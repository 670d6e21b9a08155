#include "rbmix/estimation/hamming_histograms.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

// References per block: a block of MNIST-sized rows (13 words each) stays in the L2 cache while every query row
// of a thread walks it.
constexpr Eigen::Index kReferencesPerBlock = 2048;

}  // namespace

PackedBinaryRows::PackedBinaryRows(const BinaryMatrix& rows, const std::string& source)
    : rows_(rows.rows()), units_(rows.cols()), words_per_row_((rows.cols() + 63) / 64) {
  require(units_ > 0, source + ": the rows have no units");
  require((rows.array() <= 1).all(), source + ": every value must be 0 or 1");
  words_.assign(static_cast<std::size_t>(rows_ * words_per_row_), 0);
  for (Eigen::Index r = 0; r < rows_; ++r)
    for (Eigen::Index unit = 0; unit < units_; ++unit)
      if (rows(r, unit) != 0)
        words_[static_cast<std::size_t>(r * words_per_row_ + unit / 64)] |= std::uint64_t{1} << (unit % 64);
}

DistanceHistograms::DistanceHistograms(PackedBinaryRows queries)
    : queries_(std::move(queries)), counts_(static_cast<std::size_t>(queries_.rows() * (queries_.units() + 1)), 0) {}

void DistanceHistograms::add(const PackedBinaryRows& references, Eigen::Index begin, Eigen::Index end) {
  require(references.units() == units(), "Hamming histograms: the reference rows have " +
                                             std::to_string(references.units()) + " units, the queries " +
                                             std::to_string(units()));
  require(0 <= begin && begin <= end && end <= references.rows(), "Hamming histograms: reference range out of bounds");
  require(static_cast<std::uint64_t>(references_ + (end - begin)) <= std::numeric_limits<std::uint32_t>::max(),
          "Hamming histograms: more than 2^32 − 1 reference rows");
  const Eigen::Index words = queries_.words();
  const Eigen::Index bins = units() + 1;
  for (Eigen::Index block = begin; block < end; block += kReferencesPerBlock) {
    const Eigen::Index block_end = std::min(end, block + kReferencesPerBlock);
#pragma omp parallel for schedule(static)
    for (Eigen::Index query = 0; query < queries(); ++query) {
      const std::uint64_t* query_words = queries_.row(query);
      std::uint32_t* histogram = counts_.data() + query * bins;
      for (Eigen::Index reference = block; reference < block_end; ++reference)
        ++histogram[hamming_distance(query_words, references.row(reference), words)];
    }
  }
  references_ += end - begin;
}

}  // namespace rbmix
