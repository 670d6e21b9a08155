#include "rbmix/data/split.hpp"

#include <numeric>
#include <string>

#include "rbmix/core/error.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix {

RowSplit split_rows(const BinaryMatrix& data, Eigen::Index first_rows) {
  require(first_rows >= 0 && first_rows <= data.rows(), "split: cannot take " + std::to_string(first_rows) +
                                                            " rows from a data set of " + std::to_string(data.rows()));
  return {data.topRows(first_rows), data.bottomRows(data.rows() - first_rows)};
}

std::vector<Eigen::Index> shuffled_row_order(Eigen::Index rows, std::uint64_t seed) {
  std::vector<Eigen::Index> order(static_cast<std::size_t>(rows));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  RandomStream stream(seed, 0, StreamDomain::data);
  for (std::size_t k = order.size(); k > 1; --k) std::swap(order[k - 1], order[stream.below(k)]);
  return order;
}

BinaryMatrix select_rows(const BinaryMatrix& data, const std::vector<Eigen::Index>& order) {
  BinaryMatrix out(static_cast<Eigen::Index>(order.size()), data.cols());
  for (std::size_t k = 0; k < order.size(); ++k) {
    require(order[k] >= 0 && order[k] < data.rows(), "select rows: row " + std::to_string(order[k]) +
                                                         " does not exist in a data set of " +
                                                         std::to_string(data.rows()) + " rows");
    out.row(static_cast<Eigen::Index>(k)) = data.row(order[k]);
  }
  return out;
}

}  // namespace rbmix
