#pragma once
// The SLEM sweep of 003 Fig. 3 (ALGORITHMS.md §8, F3): for RBMs with m = n ∈ sizes, weights W ~ U[−c, c] and zero
// biases, how often the flip-the-state sweep T has a smaller SLEM than the Gibbs sweep G, against the bound c.
// Each RBM (size, c, index) draws from its own RandomStream, so results do not depend on the thread count.
#include <cstdint>
#include <vector>

#include "rbmix/report/table.hpp"

namespace rbmix::experiments {

struct SlemSweepOptions {
  std::vector<int> sizes{2, 3, 4};
  std::vector<int> weight_bounds{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  int rbms_per_setting = 100;
  std::uint64_t seed = 1;
  // Throws InputError naming the option that is out of range.
  void validate() const;
};

struct SlemSweepRbm {
  int size = 0;
  int weight_bound = 0;
  int index = 0;
  double slem_gibbs = 0.0;
  double slem_flip = 0.0;
};

struct SlemSweepShare {
  int size = 0;
  int weight_bound = 0;
  int rbms = 0;
  int flip_better = 0;  // RBMs with SLEM(T) < SLEM(G)
  double mean_slem_gibbs = 0.0;
  double mean_slem_flip = 0.0;
  double share() const { return rbms > 0 ? static_cast<double>(flip_better) / rbms : 0.0; }
};

struct SlemSweepResult {
  std::vector<SlemSweepRbm> rbms;      // every RBM, in (size, c, index) order
  std::vector<SlemSweepShare> shares;  // one per (size, c), in the same order
  double seconds = 0.0;
};

// Dense SLEMs of G and T for every RBM, in parallel over RBMs (OpenMP).
SlemSweepResult run_slem_sweep(const SlemSweepOptions& options);
// size, c, rbms, share_flip_better, mean_slem_gibbs, mean_slem_flip.
Table slem_sweep_share_table(const SlemSweepResult& result);
// size, c, index, slem_gibbs, slem_flip.
Table slem_sweep_rbm_table(const SlemSweepResult& result);

}  // namespace rbmix::experiments
