#include "rbmix/report/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace rbmix {
namespace {

// The rate is measured over intervals of at least this long, so that the clock's resolution and single fast steps
// do not make it noisy.
constexpr double rate_sample_interval = 0.2;

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string format_duration(double seconds) {
  const auto total = static_cast<long long>(std::max(seconds, 0.0) + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", total / 3600, (total / 60) % 60, total % 60);
  return text;
}

ProgressReporter::ProgressReporter(std::string label, std::string unit, std::int64_t total, ProgressMode mode,
                                   std::FILE* stream, std::int64_t first, Clock clock)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      stream_(stream),
      clock_(clock ? std::move(clock) : Clock(steady_seconds)),
      done_(first),
      last_done_(first) {
  terminal_ = stream_ != nullptr && ::isatty(::fileno(stream_)) != 0;
  enabled_ = stream_ != nullptr && (mode == ProgressMode::always || (mode == ProgressMode::automatic && terminal_));
  last_time_ = clock_();
  last_print_ = last_time_;
  start_time_ = last_time_;
}

ProgressReporter::~ProgressReporter() { finish(); }

std::optional<double> ProgressReporter::rate() const {
  if (!(weights_ > 0.0)) return std::nullopt;
  return weighted_rates_ / weights_;
}

std::optional<double> ProgressReporter::seconds_left() const {
  const std::optional<double> steps_per_second = rate();
  if (!steps_per_second || !(*steps_per_second > 0.0)) return std::nullopt;
  return static_cast<double>(std::max<std::int64_t>(total_ - done_, 0)) / *steps_per_second;
}

std::string ProgressReporter::line() const {
  char numbers[160];
  const double percent = total_ > 0 ? 100.0 * static_cast<double>(done_) / static_cast<double>(total_) : 100.0;
  std::snprintf(numbers, sizeof numbers, "%s %lld/%lld (%.0f%%)", unit_.c_str(), static_cast<long long>(done_),
                static_cast<long long>(total_), percent);
  std::string text = label_ + ": " + numbers;
  if (elapsed_only_) {
    text += "  elapsed " + format_duration(clock_() - start_time_);
    if (!note_.empty()) text += "  " + note_;
    return text;
  }
  if (const auto steps_per_second = rate()) {
    char shown[64];
    std::snprintf(shown, sizeof shown, "%.3g/s", *steps_per_second);
    text += std::string("  ") + shown;
  }
  if (const auto left = seconds_left()) text += "  ETA " + format_duration(*left);
  if (!note_.empty()) text += "  " + note_;
  return text;
}

void ProgressReporter::update(std::int64_t done, const std::string& note) {
  if (finished_) return;
  done_ = done;
  if (!note.empty()) note_ = note;
  const double now = clock_();
  const double elapsed = now - last_time_;
  if (elapsed >= rate_sample_interval) {
    // The interval's steps spread over it: its weight is ∫_0^Δt e^{−s/τ} ds = τ(1 − e^{−Δt/τ}), and the history
    // decays by e^{−Δt/τ}. At a steady pace every interval has the same rate, so the ratio is that rate exactly.
    const double measured = static_cast<double>(done_ - last_done_) / elapsed;
    const std::optional<double> current = rate();
    const double time_constant = current && *current > 0.0
                                     ? std::max(rate_time_constant, rate_window_steps / *current)
                                     : rate_time_constant;
    const double decay = std::exp(-elapsed / time_constant);
    const double weight = time_constant * (1.0 - decay);
    weighted_rates_ = decay * weighted_rates_ + weight * measured;
    weights_ = decay * weights_ + weight;
    last_time_ = now;
    last_done_ = done_;
  }
  if (!enabled_) return;
  const bool reached_end = done_ == total_ && printed_done_ != done_;
  if (now - last_print_ >= (terminal_ ? print_interval : log_interval) || reached_end) {
    last_print_ = now;
    print(false);
  }
}

void ProgressReporter::print(bool final_line) {
  if (terminal_) {
    // Pad so that a shorter line covers the end of the previous one.
    std::fprintf(stream_, "\r%-100s", line().c_str());
    if (final_line) std::fputc('\n', stream_);
  } else {
    std::fprintf(stream_, "%s\n", line().c_str());
  }
  std::fflush(stream_);
  printed_done_ = done_;
}

void ProgressReporter::finish() {
  if (finished_) return;
  finished_ = true;
  if (!enabled_) return;
  // A terminal line is completed; a log gets the final state unless its last line already showed it.
  if (terminal_ || printed_done_ != done_) print(true);
}

}  // namespace rbmix
