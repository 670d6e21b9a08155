#include "rbmix/sampling/energy_trace.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

Rbm small_model() {
  Rbm rbm(5, 3);
  rbm.weights << 1, -2, 0.5, 0, 1,  //
      -1, 1, 1, 2, 0,               //
      0.3, 0.2, -0.1, -1.5, 1;
  rbm.visible_bias << 0.1, -0.2, 0.3, 0, -1;
  rbm.hidden_bias << 0.5, -0.5, 0;
  return rbm;
}

TEST(RecordEnergyTrace, RecordsTheEnergyAfterEverySweepOfEveryChain) {
  const Rbm rbm = small_model();
  const UnitRule rule = GibbsRule{};
  BatchedChains<double> recorded(4, 5, 3, 42);
  const MatrixD trace = record_energy_trace(recorded, rbm, rule, 7, 3);
  ASSERT_EQ(trace.rows(), 7);
  ASSERT_EQ(trace.cols(), 4);
  // The same seed and 3 + 7 plain sweeps reach the same states; the last row is their energy.
  BatchedChains<double> replayed(4, 5, 3, 42);
  for (int sweep = 0; sweep < 10; ++sweep) replayed.sweep(rbm, rule);
  EXPECT_EQ(replayed.visible(), recorded.visible());
  EXPECT_TRUE(trace.row(6).transpose().isApprox(rbm.energy(replayed.visible(), replayed.hidden())));
}

TEST(RecordEnergyTrace, ReportsEverySweepBurnInIncludedAndLeavesTheTraceUnchanged) {
  const Rbm rbm = small_model();
  const UnitRule rule = GibbsRule{};
  std::vector<Eigen::Index> reported;
  BatchedChains<double> watched(2, 5, 3, 7);
  const MatrixD trace = record_energy_trace(watched, rbm, rule, 4, 3, [&](Eigen::Index done) { reported.push_back(done); });
  EXPECT_EQ(reported, (std::vector<Eigen::Index>{1, 2, 3, 4, 5, 6, 7}));
  BatchedChains<double> plain(2, 5, 3, 7);
  EXPECT_EQ(trace, record_energy_trace(plain, rbm, rule, 4, 3));
}

TEST(RecordEnergyTrace, RejectsMismatchedChainsAndBadLengths) {
  const Rbm rbm = small_model();
  BatchedChains<double> wrong(2, 4, 3, 1);
  EXPECT_THROW(record_energy_trace(wrong, rbm, GibbsRule{}, 5), InputError);
  BatchedChains<double> chains(2, 5, 3, 1);
  EXPECT_THROW(record_energy_trace(chains, rbm, GibbsRule{}, 0), InputError);
  EXPECT_THROW(record_energy_trace(chains, rbm, GibbsRule{}, 5, -1), InputError);
}

}  // namespace
}  // namespace rbmix
