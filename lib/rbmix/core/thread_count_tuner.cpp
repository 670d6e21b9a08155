#include "rbmix/core/thread_count_tuner.hpp"

#include <algorithm>
#include <cstdlib>

namespace rbmix {
namespace {

template <std::size_t size>
double median(std::array<double, size> values, std::size_t count) {
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(count / 2);
  std::nth_element(values.begin(), middle, values.begin() + static_cast<std::ptrdiff_t>(count));
  return *middle;
}

}  // namespace

int tunable_team() { return std::getenv("OMP_NUM_THREADS") != nullptr ? 1 : omp_get_max_threads(); }

ThreadCountTuner::ThreadCountTuner(int team)
    : team_(std::max(team, 1)), phase_(team_ > 1 ? Phase::warm_up : Phase::settled), chosen_(team_) {}

int ThreadCountTuner::next_team() const {
  switch (phase_) {
    case Phase::warm_up:
      return 1;
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
      const auto pair = static_cast<std::size_t>(pieces_ / 2);
      times[pair] = seconds;
      if (++pieces_ % 2 != 0) return;
      const auto pairs = pair + 1;
      const auto decides = [&](std::size_t k, bool for_one_thread) {
        const double faster = for_one_thread ? trial_single_[k] : trial_full_[k];
        const double slower = for_one_thread ? trial_full_[k] : trial_single_[k];
        return slower > decisive_ratio * faster;
      };
      // Choosing the team wrongly costs up to its 10× loss until the next probe, choosing one thread wrongly its
      // 1.7× gain: one pair suffices for one thread, the team needs two in a row.
      bool decisive = decides(pair, true);
      if (!decisive && pairs >= 2) decisive = decides(pair, false) && decides(pair - 1, false);
      if (!decisive && pairs < trial_pieces) return;
      const double full = decisive ? trial_full_[pair] : median(trial_full_, pairs);
      const double single = decisive ? trial_single_[pair] : median(trial_single_, pairs);
      phase_ = Phase::settled;
      const bool one_thread = single < full;
      choose(one_thread ? 1 : team_, one_thread ? full / single : single / full);
      rival_seconds_ = one_thread ? full : single;
      if (decisive) {
        remember(one_thread ? single : full);
      } else {
        for (std::size_t k = 0; k < pairs; ++k) remember(one_thread ? trial_single_[k] : trial_full_[k]);
      }
      return;
    }
    case Phase::settled:
      break;
  }
  if (threads == chosen_) {
    remember(seconds);
    --until_probe_;
    if (chosen_ == team_ && chosen_median_ > 0.0 && recent_median() > slowdown_margin * chosen_median_)
      probe_now_ = true;
    if (recent_written_ >= (recent_pieces + 1) / 2 && recent_median() > rival_seconds_) probe_now_ = true;
    return;
  }
  // A probe of the other team.
  const double level = recent_median();
  if (seconds < switch_margin * level) {
    choose(threads, level / seconds);
    rival_seconds_ = level;
    remember(seconds);
    return;
  }
  rival_seconds_ = seconds;
  // The choice holds; slowdowns are measured from the chosen team's present level.
  schedule_probe(seconds / level);
  if (recent_written_ >= recent_pieces) chosen_median_ = level;
}

void ThreadCountTuner::choose(int threads, double rival_ratio) {
  chosen_ = threads;
  recent_written_ = 0;
  chosen_median_ = 0.0;
  probe_interval_ = 0;
  schedule_probe(rival_ratio);
}

void ThreadCountTuner::schedule_probe(double rival_ratio) {
  const double affordable = std::max(rival_ratio - 1.0, 0.0) / probe_budget;
  const double wait =
      std::max({2.0 * static_cast<double>(probe_interval_), affordable, static_cast<double>(first_probe_interval)});
  probe_interval_ = static_cast<std::int64_t>(std::min(wait, static_cast<double>(last_probe_interval)));
  until_probe_ = probe_interval_;
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
