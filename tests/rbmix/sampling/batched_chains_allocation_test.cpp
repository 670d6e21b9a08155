// "A sweep allocates nothing" (batched_chains.hpp), checked by counting every call of malloc — through which
// operator new, std::string and Eigen's aligned allocator all go — while chains sweep. A program of its own:
// the counting malloc replaces the C library's for the whole program (glibc supports replacing malloc by
// defining it and forwarding to __libc_malloc).
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>

#include "rbmix/sampling/batched_chains.hpp"

extern "C" void* __libc_malloc(std::size_t size);

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

extern "C" void* malloc(std::size_t size) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}

namespace rbmix {
namespace {

// malloc calls while `work` runs.
template <typename Work>
long allocations_during(Work&& work) {
  allocations = 0;
  counting = true;
  work();
  counting = false;
  return allocations.load();
}

template <typename Scalar>
BasicRbm<Scalar> test_model(Eigen::Index n_visible, Eigen::Index n_hidden) {
  BasicRbm<Scalar> rbm(n_visible, n_hidden);
  for (Eigen::Index k = 0; k < rbm.weights.size(); ++k) rbm.weights.data()[k] = static_cast<Scalar>((k % 7) - 3) / 4;
  rbm.visible_bias.setConstant(Scalar(-0.5));
  rbm.hidden_bias.setConstant(Scalar(0.25));
  return rbm;
}

// Once the first sweep has sized the workspaces, sweeps with any rule, at β = 1 or tempered, allocate nothing;
// the matrix products are small enough for Eigen to pack on the stack.
TEST(BatchedChainsAllocation, ASweepAllocatesNothing) {
  const BasicRbm<float> rbm = test_model<float>(20, 12);
  BatchedChains<float> chains(64, 20, 12, 5);
  const std::vector<UnitRule> rules{GibbsRule{}, FlipTheStateRule{}, MixtureRule{0.3}, NaiveFlipRule{},
                                    UnitModifiedRule{0.5}};
  chains.sweep(rbm, GibbsRule{});
  for (const UnitRule& rule : rules) {
    EXPECT_EQ(allocations_during([&] {
                for (int sweep = 0; sweep < 10; ++sweep) chains.sweep(rbm, rule);
                chains.sweep(rbm, rule, 0.5f);
              }),
              0)
        << to_string(rule);
  }
}

// The counter sees allocations: constructing chains allocates (their states, workspaces and streams).
TEST(BatchedChainsAllocation, TheCounterSeesAllocations) {
  EXPECT_GT(allocations_during([] { BatchedChains<double> chains(4, 3, 2, 1); }), 0);
}

}  // namespace
}  // namespace rbmix
