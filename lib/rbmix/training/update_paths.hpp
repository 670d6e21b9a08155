#pragma once
// UpdatePaths: which of two implementations of the same step a training update takes, where rbmix keeps both so that
// tests and benchmarks can compare them in one run. Every default is the path rbmix uses; the others give the same
// numbers (in place, replica-parallel tempering in double) or the same to rounding (dense products).
#include "rbmix/model/binary_product.hpp"

namespace rbmix {

struct UpdatePaths {
  // The 0/1 products' paths (binary_product.hpp), for the positive phase and every negative phase's chains.
  ProductPaths products{};
  // Parallel tempering runs each replica's sweeps whole on one thread of the team and forms no product at β = 0
  // (negative_phase.cpp says why). Off, it runs the replicas one after another, each product and draw on the whole
  // team, and forms every product: the path before that change, which tools/bench/pt_update_bench.cpp times.
  bool replica_parallel_tempering = true;
};

}  // namespace rbmix
