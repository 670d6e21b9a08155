#include "rbmix/core/thread_count_tuner.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdlib>
#include <functional>
#include <optional>
#include <string>

#include "support/scoped_environment_variable.hpp"

namespace rbmix {
namespace {

using Tuner = ThreadCountTuner;
constexpr int kTeam = 4;

// Feeds the tuner `pieces` pieces whose time is cost(threads, piece), as its run() would; returns the total time.
double feed(Tuner& tuner, std::int64_t first_piece, std::int64_t pieces,
            const std::function<double(int threads, std::int64_t piece)>& cost) {
  double total = 0.0;
  for (std::int64_t piece = first_piece; piece < first_piece + pieces; ++piece) {
    const int threads = tuner.next_team();
    EXPECT_TRUE(threads == kTeam || threads == 1) << threads;
    const double seconds = cost(threads, piece);
    tuner.record(threads, seconds);
    total += seconds;
  }
  return total;
}

// The machines of the figures in docs/performance.md "Under contention", in units of an idle one-thread update:
// idle, the team gains 1.7×; with other work on the machine, the team is `loss` times slower than one thread
// (1.9× with one core of two busy, 4.7× and 10× during parallel builds).
double idle_cost(int threads, std::int64_t) { return threads == 1 ? 1.0 : 1.0 / 1.7; }
double team_loss_cost(int threads, double loss) { return threads == 1 ? 1.0 : loss; }
double busy_cost(int threads, std::int64_t) { return team_loss_cost(threads, 4.7); }

TEST(ThreadCountTuner, ATeamOfOneIsNeverTuned) {
  Tuner tuner(1);
  EXPECT_EQ(tuner.team(), 1);
  EXPECT_EQ(feed(tuner, 0, 50, busy_cost), 50.0);
  EXPECT_EQ(tuner.chosen_team(), 1);
}

TEST(ThreadCountTuner, WarmsUpOnOneThreadThenAlternatesTheTrial) {
  Tuner tuner(kTeam);
  std::string teams;
  for (int piece = 0; piece < Tuner::warm_up_pieces + 2 * Tuner::trial_pieces; ++piece) {
    const int threads = tuner.next_team();
    teams += std::to_string(threads);
    tuner.record(threads, 1.0);
  }
  EXPECT_EQ(teams, "11414141");  // equal times: no pair decides, three pairs
}

TEST(ThreadCountTuner, KeepsTheTeamOnAnIdleMachine) {
  Tuner tuner(kTeam);
  const double total = feed(tuner, 0, 1000, idle_cost);
  EXPECT_EQ(tuner.chosen_team(), kTeam);
  // The warm-up and the trial on one thread and the probes cost a few per cent over the team alone.
  EXPECT_LT(total, 1.03 * 1000 * idle_cost(kTeam, 0));
}

TEST(ThreadCountTuner, FallsBackToOneThreadOnABusyMachine) {
  for (const double loss : {1.9, 4.7, 10.0}) {
    Tuner tuner(kTeam);
    const auto cost = [&](int threads, std::int64_t) { return team_loss_cost(threads, loss); };
    constexpr std::int64_t first_pair_end = Tuner::warm_up_pieces + 2;
    double total = feed(tuner, 0, first_pair_end, cost);
    EXPECT_EQ(tuner.chosen_team(), 1) << loss;  // the first pair decides for one thread
    total += feed(tuner, first_pair_end, 1000 - first_pair_end, cost);
    EXPECT_EQ(tuner.chosen_team(), 1) << loss;
    // The trial's piece on the team and the probes cost a few per cent over one thread alone (the goal: 10 %).
    EXPECT_LT(total, 1.05 * 1000) << loss;
  }
}

TEST(ThreadCountTuner, FollowsTheLoadAsItComesAndGoes) {
  Tuner tuner(kTeam);
  const auto busy_between = [](std::int64_t begin, std::int64_t end) {
    return [=](int threads, std::int64_t piece) {
      return piece >= begin && piece < end ? busy_cost(threads, piece) : idle_cost(threads, piece);
    };
  };
  const auto load = busy_between(2000, 4000);
  feed(tuner, 0, 2000, load);
  EXPECT_EQ(tuner.chosen_team(), kTeam);
  // Load arrives: the team's times grow past slowdown_margin, which brings the probe at once.
  const double busy_total = feed(tuner, 2000, 2000, load);
  EXPECT_EQ(tuner.chosen_team(), 1);
  EXPECT_LT(busy_total, 1.05 * 2000 * busy_cost(1, 0));
  // Load leaves: one thread's times do not change, so only the regular probe finds the team faster again.
  const double idle_total = feed(tuner, 4000, 2000, load);
  EXPECT_EQ(tuner.chosen_team(), kTeam);
  EXPECT_LT(idle_total, 1.2 * 2000 * idle_cost(kTeam, 0));
}

TEST(ThreadCountTuner, OnePairMisledByNoiseDoesNotChooseTheTeam) {
  Tuner tuner(kTeam);
  // The trial's first one-thread piece is hit by something else, so the first pair favours the team, 10× slower
  // in truth; the second pair decides.
  const auto cost = [](int threads, std::int64_t piece) {
    if (piece == Tuner::warm_up_pieces + 1) return 20.0;
    return team_loss_cost(threads, 10.0);
  };
  double total = feed(tuner, 0, Tuner::warm_up_pieces + 4, cost);
  EXPECT_EQ(tuner.chosen_team(), 1);
  total += feed(tuner, Tuner::warm_up_pieces + 4, 1000 - Tuner::warm_up_pieces - 4, cost);
  EXPECT_EQ(tuner.chosen_team(), 1);
  EXPECT_LT(total, 1.1 * 1000);
}

TEST(ThreadCountTuner, TwoDecisivePairsChooseTheTeam) {
  Tuner tuner(kTeam);
  feed(tuner, 0, Tuner::warm_up_pieces + 4, idle_cost);
  EXPECT_EQ(tuner.chosen_team(), kTeam);
  EXPECT_EQ(tuner.next_team(), kTeam);  // settled: no third pair
}

TEST(ThreadCountTuner, ASingleSlowProbeDoesNotSwitch) {
  Tuner tuner(kTeam);
  feed(tuner, 0, 200, idle_cost);
  ASSERT_EQ(tuner.chosen_team(), kTeam);
  // One piece of either team slowed by something else: the choice holds.
  std::optional<std::int64_t> slowed;
  feed(tuner, 200, 400, [&](int threads, std::int64_t piece) {
    if (!slowed && threads == kTeam) slowed = piece;
    return piece == slowed ? 10.0 : idle_cost(threads, piece);
  });
  EXPECT_EQ(tuner.chosen_team(), kTeam);
}

TEST(ThreadCountTuner, RunSetsTheTeamAndRestoresTheCallersSetting) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(3);
  Tuner tuner(kTeam);
  std::string seen;
  for (int piece = 0; piece < Tuner::warm_up_pieces + 2; ++piece)
    tuner.run([&] { seen += std::to_string(omp_get_max_threads()); });
  EXPECT_EQ(seen, "1141");
  EXPECT_EQ(omp_get_max_threads(), 3);
  Tuner untuned(1);
  untuned.run([&] { EXPECT_EQ(omp_get_max_threads(), 3); });  // a team of one leaves the setting alone
  omp_set_num_threads(saved);
}

TEST(ThreadCountTuner, TunesOnlyWhatTheUserLeftToTheDefault) {
  const int threads = omp_get_max_threads();
  {
    const testing::ScopedEnvironmentVariable unset("OMP_NUM_THREADS", std::nullopt);
    EXPECT_EQ(tunable_team(), threads);
  }
  const testing::ScopedEnvironmentVariable chosen("OMP_NUM_THREADS", "2");
  EXPECT_EQ(tunable_team(), 1);
}

}  // namespace
}  // namespace rbmix
