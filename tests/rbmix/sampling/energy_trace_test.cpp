#include "rbmix/sampling/energy_trace.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "rbmix/core/error.hpp"
#include "rbmix/model/binary_product.hpp"
#include "rbmix/random/random_stream.hpp"

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

// record_energy_trace reads a FixedRbm (Wᵀ beside W, one chain's products in place) and reuses each sweep's c + W v
// for the energy: it must give, bit for bit, the trace of plain sweeps and energies() with every product packed.
// 150 visible and 120 hidden units leave partial column blocks in both products and make one chain's products
// large enough for the 0/1 path; biases near −1.5 keep the layers' shares of ones below its thresholds (a quarter
// or less, as in models trained on MNIST). One chain and three.
template <typename Scalar>
void check_trace_matches_plain_sweeps(Eigen::Index chain_count) {
  constexpr Eigen::Index visible = 150;
  constexpr Eigen::Index hidden = 120;
  RandomStream stream(3, 0, StreamDomain::experiment);
  BasicRbm<Scalar> rbm(visible, hidden);
  for (Eigen::Index k = 0; k < rbm.weights.size(); ++k)
    rbm.weights.data()[k] = static_cast<Scalar>(0.5 * (stream.uniform() - 0.5));
  for (Eigen::Index j = 0; j < visible; ++j) rbm.visible_bias(j) = static_cast<Scalar>(stream.uniform() - 2.0);
  for (Eigen::Index i = 0; i < hidden; ++i) rbm.hidden_bias(i) = static_cast<Scalar>(stream.uniform() - 2.0);
  const UnitRule rule = FlipTheStateRule{};
  BatchedChains<Scalar> recorded(chain_count, visible, hidden, 9);
  const MatrixD trace = record_energy_trace(recorded, rbm, rule, 30, 5);
  BatchedChains<Scalar> plain(chain_count, visible, hidden, 9);
  MatrixD plain_trace(30, chain_count);
  plain.set_product_paths({.in_place = false});
  for (int sweep = 0; sweep < 5; ++sweep) plain.sweep(rbm, rule);
  for (Eigen::Index step = 0; step < 30; ++step) {
    plain.sweep(rbm, rule);
    plain_trace.row(step) = plain.energies(rbm).template cast<double>().transpose();
  }
  EXPECT_EQ(trace, plain_trace);
  EXPECT_EQ(recorded.visible(), plain.visible());
  EXPECT_EQ(recorded.hidden(), plain.hidden());
}

TEST(RecordEnergyTrace, IsThePlainSweepsTraceBitForBitInDouble) {
  check_trace_matches_plain_sweeps<double>(1);
  check_trace_matches_plain_sweeps<double>(3);
}
TEST(RecordEnergyTrace, IsThePlainSweepsTraceBitForBitInFloat) {
  check_trace_matches_plain_sweeps<float>(1);
  check_trace_matches_plain_sweeps<float>(3);
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
