#pragma once
// Dense products whose every entry is the same whatever the thread team. Eigen's own parallel product sizes its
// blocks of the summed dimension by the team's size, so one thread and two round the same product differently:
// a float PCD run on data with 60 % ones ended 30 updates 5·10⁻⁴ apart in W between OMP_NUM_THREADS=1 and 2, and
// the thread-count tuner, which changes the team while a run goes on, would have made a run's numbers depend on
// the machine's load. rbmix builds with EIGEN_DONT_PARALLELIZE (lib/CMakeLists.txt), so every Eigen product runs
// on one thread; the products that take a training update's time split their output into column blocks of a fixed
// width instead, each block one serial product, and share the blocks among the team. The split depends on the
// shapes alone, and so does every sum (docs/performance.md, "Under contention").
#include <omp.h>

#include <algorithm>
#include <cstdint>

#include "rbmix/core/types.hpp"

namespace rbmix {

// Columns of the output per block: a multiple of every register block Eigen's kernels use, and wide enough that
// packing the left operand again for each block stays a few per cent of the block's multiply-adds.
inline constexpr Eigen::Index fixed_split_block_columns = 64;
// Below this many multiply-adds the blocks run on the calling thread: a team costs more than it saves.
inline constexpr double fixed_split_parallel_work = 2.0e6;

// out = scale · (left · right), out sized here, its columns in blocks of fixed_split_block_columns. A product
// within one block is exactly the serial product it replaces. Inside a parallel region (a replica's thread) the
// blocks run on the calling thread.
template <typename Left, typename Right, typename Scalar>
void fixed_split_product(const Eigen::MatrixBase<Left>& left, const Eigen::MatrixBase<Right>& right,
                         Matrix<Scalar>& out, Scalar scale = Scalar(1)) {
  // An expression on the left (a cast of 0/1 states) is formed once, not once per block.
  decltype(auto) evaluated_left = left.derived().eval();
  out.resize(left.rows(), right.cols());
  const Eigen::Index columns = right.cols();
  const auto blocks = static_cast<std::int64_t>((columns + fixed_split_block_columns - 1) / fixed_split_block_columns);
  const auto block_product = [&](std::int64_t block) {
    const Eigen::Index first = static_cast<Eigen::Index>(block) * fixed_split_block_columns;
    const Eigen::Index width = std::min(fixed_split_block_columns, columns - first);
    if (scale == Scalar(1)) {
      out.middleCols(first, width).noalias() = evaluated_left * right.middleCols(first, width);
    } else {
      out.middleCols(first, width).noalias() = scale * (evaluated_left * right.middleCols(first, width));
    }
  };
  const double work = static_cast<double>(left.rows()) * static_cast<double>(left.cols()) * static_cast<double>(columns);
  if (blocks == 1 || work < fixed_split_parallel_work || omp_in_parallel()) {
    // A plain loop: libgomp opens a one-thread region even under `if (false)`, and a tiny model's layer inputs
    // come here in the sampler's inner loop.
    for (std::int64_t block = 0; block < blocks; ++block) block_product(block);
    return;
  }
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t block = 0; block < blocks; ++block) block_product(block);
}

}  // namespace rbmix
