#include "rbmix/sampling/tempering_ladder.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>

#include "rbmix/sampling/coupled_ladders.hpp"
#include "support/ladder_models.hpp"

namespace rbmix {
namespace {

using testing::small_trajectory;

// Once two ladders agree on every rung they stay equal: exchanges decided alike, sweeps coupled faithfully.
TEST(CoupledLadders, MetLaddersStayMet) {
  const std::vector<Rbm> rungs = small_trajectory(8, 5, 9, {1.0, 2.0});
  for (const char* rule : {"gibbs", "flip"}) {
    CoupledLadders<double> ladders(rungs, 6, {parse_unit_rule(rule), 1}, 60, 3);
    for (Eigen::Index k = 0; k < 3; ++k) {
      ladders.step_first();
      auto& rung = ladders.rung(k);
      rung.visible(CoupledChain::second) = rung.visible(CoupledChain::first);
      rung.hidden(CoupledChain::second) = rung.hidden(CoupledChain::first);
    }
    for (int step = 0; step < 50; ++step) {
      ladders.coupled_step();
      for (Eigen::Index pair = 0; pair < 6; ++pair) ASSERT_EQ(ladders.distance(pair), 0) << rule << " step " << step;
    }
  }
}

// Identical rungs exchange every time: each ladder's replica goes up at every even phase and down at the next, one
// round trip per ladder and step after the first.
TEST(LadderChains, CountsRoundTripsOfTheReplicaLabels) {
  const Rbm independent(3, 2);
  LadderChains<double> chains({independent, independent}, 3, {GibbsRule{}, 1}, 1);
  for (int step = 0; step < 10; ++step) chains.step();
  EXPECT_EQ(chains.statistics().round_trips, 3 * 9);
  EXPECT_EQ(chains.statistics().acceptance()[0], 1.0);
  EXPECT_EQ(chains.statistics().attempted[0], 30);
}

// The same seed gives the same ladders whatever the thread count (layers large enough to run on the team).
TEST(LadderChains, TheThreadCountChangesNoNumber) {
  const std::vector<Rbm> rungs = small_trajectory(200, 90, 4, {0.02, 0.05});
  const auto run = [&](int threads) {
    const int previous = omp_get_max_threads();
    omp_set_num_threads(threads);
    LadderChains<double> chains(rungs, 128, {parse_unit_rule("flip"), 2}, 8);
    for (int step = 0; step < 5; ++step) chains.step();
    omp_set_num_threads(previous);
    return std::pair{MatrixD(chains.top_visible()), chains.statistics().accepted};
  };
  const auto one = run(1);
  const auto two = run(2);
  EXPECT_EQ(one.first, two.first);
  EXPECT_EQ(one.second, two.second);
}

// The placement keeps the ends, increases, and places more rungs for a higher target; the measured acceptance of the
// placed links is near the target (the estimates come from annealed chains, the measurement from the ladder).
TEST(LadderPlacement, PlacesRungsForTheTargetAcceptance) {
  const std::vector<Rbm> trajectory = small_trajectory(10, 6, 2, {1.0, 2.0, 3.0});
  const ModelPath path(trajectory, {"independent", "a", "b", "c"});
  LadderPlacementOptions options;
  options.candidates = 120;
  options.chains = 400;
  options.target_acceptance = 0.3;
  const PlacedLadder low = place_rungs(path, options);
  options.target_acceptance = 0.8;
  const PlacedLadder high = place_rungs(path, options);
  for (const auto* placed : {&low, &high}) {
    EXPECT_EQ(placed->positions.front(), 0.0);
    EXPECT_EQ(placed->positions.back(), 3.0);
    EXPECT_TRUE(std::is_sorted(placed->positions.begin(), placed->positions.end()));
  }
  EXPECT_GT(high.positions.size(), low.positions.size() + 2);
  LadderChains<double> chains(ladder_rungs(path, high.positions), 400, {GibbsRule{}, 1}, 5);
  for (int step = 0; step < 100; ++step) chains.step();
  // 0.8 targeted; 0.65 leaves room for the estimates' error (400 chains) and the rounding to candidates.
  EXPECT_GT(chains.statistics().acceptance().minCoeff(), 0.65);
}

}  // namespace
}  // namespace rbmix
