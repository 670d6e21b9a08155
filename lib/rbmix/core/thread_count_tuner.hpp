#pragma once
// ThreadCountTuner: chooses the thread team for a loop of like pieces of work (training updates) by timing them, so
// that a busy machine never makes the threaded run slower than one thread.
//
// Why: a threaded PCD-1 update is about nine fork-join regions (products, sweeps, the optimizer's pass), each ending
// at a barrier that waits for the team's slowest thread. When another process shares a core with one of the team's
// threads, that thread runs for part of each scheduler slice only, and every barrier waits for it: with one core of
// two busy, the default team ran an update 1.9× slower than one thread, 4.7× during a parallel build
// (docs/performance.md "Under contention"). No fixed setting suits both an idle and a busy machine, and the load
// changes during a run, so the tuner measures instead of guessing.
//
// The policy, between the full team and one thread: the first warm_up_pieces pieces run on one thread untimed
// (first touch of the workspaces; one thread is never far slower than the team, while a busy machine can make the
// team 10× slower). Then the trial alternates the team and one thread, a pair at a time: a pair in which one thread
// is decisive_ratio times faster decides for it at once, two such pairs in a row for the team (a wrong choice of the
// team costs far more than one of one thread), otherwise the lower median of trial_pieces pairs wins. From then on one
// piece with the other team is timed now and then (a probe), and it takes over if it is faster than switch_margin × the
// median of the chosen team's last recent_pieces pieces. The probes are spaced so that they cost at most
// probe_budget of the run: a probe that came out r times the chosen median costs r − 1 pieces' time, so the next
// one waits (r − 1) / probe_budget pieces, and at least twice the last wait (from first_probe_interval, never more
// than last_probe_interval). The probe comes at once when the chosen team's median (of three pieces or more) is
// slower than the other team's last timed piece (a trial pair misled by noise is undone within a few pieces, not
// after a probe interval on a team that may be 10× slower), and, while the full team runs, when its median has grown
// by slowdown_margin over its level at the last choice or probe (load has arrived; one thread's times grow too under
// load, but its rival only gets worse).
//
// Only the team's size changes; every threaded routine in rbmix gives the same bits whatever the thread count, so the
// numbers never depend on the tuner's choices.
#include <omp.h>

#include <array>
#include <chrono>
#include <cstdint>

namespace rbmix {

// The team to tune from, or 1 when it must be left alone: omp_get_max_threads(), unless the user chose the count
// (OMP_NUM_THREADS set: the user's setting is kept exactly, whatever the load). Tests and benchmarks that need the
// full team at every piece set OMP_NUM_THREADS too, as a user would.
int tunable_team();

class ThreadCountTuner {
 public:
  static constexpr int warm_up_pieces = 2;
  static constexpr int trial_pieces = 3;  // of each team; an odd count has a middle value
  // A trial pair whose slower piece took this many times the faster one decides: the idle team's gain (1.7×) and
  // the busy team's loss (1.9× to 10×) are both well beyond the scatter of one piece on a shared machine.
  static constexpr double decisive_ratio = 1.5;
  static constexpr int recent_pieces = 5;
  static constexpr double probe_budget = 0.02;
  static constexpr std::int64_t first_probe_interval = 16;
  static constexpr std::int64_t last_probe_interval = 1024;
  // A probe must be this much faster to take over: timings on a shared machine scatter by several per cent, and a
  // switch on noise costs a probe interval on the slower team.
  static constexpr double switch_margin = 0.9;
  static constexpr double slowdown_margin = 1.3;

  // Tunes between `team` threads and one. With a team of one it does not tune, and run() leaves the caller's thread
  // count as it is (tunable_team() answers one where the user chose the count).
  explicit ThreadCountTuner(int team = tunable_team());

  int team() const { return team_; }
  // The team for the next piece.
  int next_team() const;
  // The piece just run took `seconds` with `threads` threads (the value next_team() gave).
  void record(int threads, double seconds);
  // The team the tuner currently runs when it does not probe.
  int chosen_team() const { return chosen_; }

  // Runs work() with next_team() threads (omp_set_num_threads, the caller's setting restored after) and records its
  // time.
  template <typename Work>
  void run(const Work& work) {
    if (team_ == 1) {
      work();
      return;
    }
    const int threads = next_team();
    const int previous = omp_get_max_threads();
    omp_set_num_threads(threads);
    const auto start = std::chrono::steady_clock::now();
    work();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    omp_set_num_threads(previous);
    record(threads, seconds);
  }

 private:
  enum class Phase { warm_up, trial, settled };
  int other(int threads) const { return threads == team_ ? 1 : team_; }
  void choose(int threads, double rival_ratio);
  void schedule_probe(double rival_ratio);
  void remember(double seconds);
  double recent_median() const;

  int team_;
  Phase phase_;
  int chosen_;
  std::int64_t pieces_ = 0;                          // pieces recorded in the current phase
  std::array<double, trial_pieces> trial_full_{};    // the trial's times on the full team
  std::array<double, trial_pieces> trial_single_{};  // and on one thread
  std::array<double, recent_pieces> recent_{};       // the chosen team's last times, a ring
  std::int64_t recent_written_ = 0;
  double rival_seconds_ = 0.0;  // the other team's last timed piece
  double chosen_median_ = 0.0;  // the chosen team's level at the last choice or probe; 0 until its ring is full
  std::int64_t probe_interval_ = first_probe_interval;
  std::int64_t until_probe_ = first_probe_interval;
  bool probe_now_ = false;
};

}  // namespace rbmix
