#pragma once
// Binary data from grey-level images (docs/algorithms/data-and-figures.md §7), each intensity x ∈ [0, 255] read as p =
// x / 255:
//  - threshold_binarize: v = [p > 1/2], deterministic (000 §4.1, the MNIST patches);
//  - stochastic_binarize: v ~ Bernoulli(p) independently (Salakhutdinov & Murray 2008 binarise MNIST once with a
//    seed; 000 §4.1 draws afresh whenever a data point is needed, i.e. a new draw every epoch).
// Row r of epoch e draws from RandomStream(seed, e·2³² + r, StreamDomain::binarisation), so the result depends only
// on (seed, epoch, row) — not on the thread count, nor on which other rows are binarised alongside.
#include <cstdint>

#include "rbmix/data/idx.hpp"

namespace rbmix {

BinaryMatrix threshold_binarize(const ByteMatrix& intensities);

// The whole matrix for one epoch; epoch 0 is "binarised once with a seed". Rows and epochs must be below 2³².
BinaryMatrix stochastic_binarize(const ByteMatrix& intensities, std::uint64_t seed, std::uint64_t epoch = 0);

}  // namespace rbmix
