#pragma once
// Splitting the rows of a data set into training / validation / test parts.
//  - split_rows keeps the order: 000 §4.1 splits MNIST's 60 000 training images into the first 50 000 for training
//    and the last 10 000 for validation (rbmix's default for MNIST).
//  - shuffled_row_order gives a seeded random order (Fisher–Yates driven by RandomStream(seed, 0,
//    StreamDomain::data)), for data sets whose file order is not random; select_rows then applies it.
#include <cstdint>
#include <vector>

#include "rbmix/core/types.hpp"

namespace rbmix {

struct RowSplit {
  BinaryMatrix first;
  BinaryMatrix rest;
};

// The first `first_rows` rows and the remaining ones, in order.
RowSplit split_rows(const BinaryMatrix& data, Eigen::Index first_rows);

// A permutation of 0..rows−1 determined by the seed.
std::vector<Eigen::Index> shuffled_row_order(Eigen::Index rows, std::uint64_t seed);
// The rows of `data` listed in `order` (indices may repeat or be a subset).
BinaryMatrix select_rows(const BinaryMatrix& data, const std::vector<Eigen::Index>& order);

}  // namespace rbmix
