#include "rbmix/core/thread_count_tuner.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>

namespace rbmix {
namespace {

std::atomic<bool> tuning_on{true};

template <std::size_t size>
double median(std::array<double, size> values, std::size_t count) {
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(count / 2);
  std::nth_element(values.begin(), middle, values.begin() + static_cast<std::ptrdiff_t>(count));
  return *middle;
}

}  // namespace

void set_thread_count_tuning_enabled(bool enabled) { tuning_on.store(enabled); }
bool thread_count_tuning_enabled() { return tuning_on.load(); }

int tunable_team() {
  const int team = omp_get_max_threads();
  if (!thread_count_tuning_enabled() || std::getenv("OMP_NUM_THREADS") != nullptr) return 1;
  return team;
}

ThreadCountTuner::ThreadCountTuner(int team)
    : team_(std::max(team, 1)), phase_(team_ > 1 ? Phase::warm_up : Phase::settled), chosen_(team_) {}

int ThreadCountTuner::next_team() const {
  switch (phase_) {
    case Phase::warm_up:
      return team_;
    case Phase::trial:
      return pieces_ % 2 == 0 ? team_ : 1;
    case Phase::settled:
      break;
  }
  if (team_ == 1) return 1;
  return probe_now_ || until_probe_ <= 0 ? other(chosen_) : chosen_;
}

void ThreadCountTuner::record(int threads, double seconds) {
  if (team_ == 1) return;
  switch (phase_) {
    case Phase::warm_up:
      if (++pieces_ == warm_up_pieces) {
        phase_ = Phase::trial;
        pieces_ = 0;
      }
      return;
    case Phase::trial: {
      auto& times = threads == team_ ? trial_full_ : trial_single_;
      times[static_cast<std::size_t>(pieces_ / 2)] = seconds;
      if (++pieces_ < 2 * trial_pieces) return;
      const double full = median(trial_full_, trial_pieces);
      const double single = median(trial_single_, trial_pieces);
      phase_ = Phase::settled;
      choose(single < full ? 1 : team_);
      for (const double time : single < full ? trial_single_ : trial_full_) remember(time);
      return;
    }
    case Phase::settled:
      break;
  }
  if (threads == chosen_) {
    remember(seconds);
    --until_probe_;
    if (chosen_median_ > 0.0 && recent_median() > slowdown_margin * chosen_median_) probe_now_ = true;
    return;
  }
  // A probe of the other team.
  if (seconds < switch_margin * recent_median()) {
    choose(threads);
    remember(seconds);
    return;
  }
  // The choice holds: probe less often, and measure slowdowns from the chosen team's present level.
  probe_interval_ = std::min(2 * probe_interval_, last_probe_interval);
  until_probe_ = probe_interval_;
  probe_now_ = false;
  if (recent_written_ >= recent_pieces) chosen_median_ = recent_median();
}

void ThreadCountTuner::choose(int threads) {
  chosen_ = threads;
  recent_written_ = 0;
  chosen_median_ = 0.0;
  probe_interval_ = first_probe_interval;
  until_probe_ = first_probe_interval;
  probe_now_ = false;
}

void ThreadCountTuner::remember(double seconds) {
  recent_[static_cast<std::size_t>(recent_written_ % recent_pieces)] = seconds;
  if (++recent_written_ == recent_pieces && chosen_median_ == 0.0) chosen_median_ = recent_median();
}

double ThreadCountTuner::recent_median() const {
  return median(recent_, static_cast<std::size_t>(std::min<std::int64_t>(recent_written_, recent_pieces)));
}

}  // namespace rbmix
