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
// The policy, between the full team and one thread: the first warm_up_pieces pieces run on the full team untimed
// (first touch of the workspaces); then trial_pieces pieces of each, alternated, and the lower median wins; from
// then on one piece with the other team is timed every probe interval (first_probe_interval pieces, doubled up to
// last_probe_interval while the choice holds), and it takes over if it is faster than switch_margin × the median of
// the chosen team's last recent_pieces pieces. The probe comes at once when that median has grown by slowdown_margin
// over the chosen team's median once chosen (load has arrived). A probe of the slower team costs at most its
// extra time once per interval: with the full team 4.7× slower, 3.7 updates' time per 256.
//
// Only the team's size changes; every threaded routine in rbmix gives the same bits whatever the thread count, so the
// numbers never depend on the tuner's choices.
#include <omp.h>

#include <array>
#include <chrono>
#include <cstdint>

namespace rbmix {

// Whether new tuners tune (on by default). Off, they always run the full team: benchmarks and tests compare the two
// in one run. Not for use while tuners run on other threads.
void set_thread_count_tuning_enabled(bool enabled);
bool thread_count_tuning_enabled();

// The team to tune from, or 1 when it must be left alone: omp_get_max_threads(), unless tuning is off or the user
// chose the count (OMP_NUM_THREADS set: the user's setting is kept exactly, whatever the load).
int tunable_team();

class ThreadCountTuner {
 public:
  static constexpr int warm_up_pieces = 2;
  static constexpr int trial_pieces = 3;  // of each team; an odd count has a middle value
  static constexpr int recent_pieces = 5;
  static constexpr std::int64_t first_probe_interval = 16;
  static constexpr std::int64_t last_probe_interval = 256;
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
  void choose(int threads);
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
  double chosen_median_ = 0.0;  // the chosen team's median once it was chosen; 0 until its ring is full
  std::int64_t probe_interval_ = first_probe_interval;
  std::int64_t until_probe_ = first_probe_interval;
  bool probe_now_ = false;
};

}  // namespace rbmix
