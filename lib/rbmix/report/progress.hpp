#pragma once
// ProgressReporter: the one progress line every long command writes on stderr — steps done of the total, the rate,
// the time left and a note (for training, the latest monitored score).
// On a terminal the line is rewritten in place (\r) at most every print_interval; where the stream is not a terminal
// (a log file, a pipe) it stays quiet unless asked for (ProgressMode::always), and then writes whole lines at most
// every log_interval, so a log does not fill with updates.
// The time left is remaining / rate with the rate an exponentially weighted average in time: the steps of the last
// window over its length, each interval weighted ∫ e^{−age/τ}. Normalised by the weights so far, it is the plain
// average rate while the run is younger than τ (the first interval does not set it alone), and forgets the old
// pace after that. τ is rate_time_constant, or the time of rate_window_steps steps when steps are slower (grid jobs
// of minutes): an average over a handful of jobs would jump with each long one. So a single slow step (an
// evaluation, a checkpoint, a long job) moves the estimate a little instead of making it jump, and the estimate does
// not climb while the work runs at a steady pace.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>

namespace rbmix {

enum class ProgressMode {
  automatic,  // a line on a terminal, nothing elsewhere
  always,     // also where the stream is not a terminal (--progress)
  never,      // nothing (--quiet)
};

// "H:MM:SS".
std::string format_duration(double seconds);

class ProgressReporter {
 public:
  using Clock = std::function<double()>;  // seconds since any fixed origin
  static constexpr double print_interval = 0.25;      // seconds between rewrites of a terminal line
  static constexpr double log_interval = 10.0;        // seconds between lines elsewhere
  static constexpr double rate_time_constant = 10.0;  // seconds: the smoothed rate forgets with e^{−Δt/10 s} …
  static constexpr double rate_window_steps = 20.0;   // … or over the time of 20 steps, whichever is longer

  // `label` names the command ("train"), `unit` the step ("update"); `total` > 0 steps are planned, of which
  // `first` are already done (a resumed run). `clock` defaults to a steady clock; tests pass their own.
  ProgressReporter(std::string label, std::string unit, std::int64_t total, ProgressMode mode,
                   std::FILE* stream = stderr, std::int64_t first = 0, Clock clock = {});
  ~ProgressReporter();
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  bool enabled() const { return enabled_; }
  // For steps of very unequal cost (analyze's stages, one of which takes most of the time): the line shows the
  // time elapsed instead of a rate and an ETA, which such steps would make misleading.
  void show_elapsed_instead_of_eta() { elapsed_only_ = true; }
  // `done` steps are complete; `note` (may be empty) ends the line. Cheap when nothing is printed.
  void update(std::int64_t done, const std::string& note = {});
  // Prints the last state and ends the line (a terminal's line is kept); idempotent, also run by the destructor.
  void finish();

  // Steps per second, smoothed; nullopt before the first measured interval.
  std::optional<double> rate() const;
  // Seconds left at the smoothed rate; nullopt until there is a rate.
  std::optional<double> seconds_left() const;
  // The line as it would be printed now (without \r or newline).
  std::string line() const;

 private:
  void print(bool final_line);

  std::string label_;
  std::string unit_;
  std::int64_t total_;
  std::FILE* stream_;
  Clock clock_;
  bool enabled_ = false;
  bool terminal_ = false;
  bool finished_ = false;
  bool elapsed_only_ = false;
  double start_time_ = 0.0;
  std::int64_t done_ = 0;
  std::string note_;
  double last_time_ = 0.0;
  std::int64_t last_done_ = 0;
  double last_print_ = 0.0;
  std::int64_t printed_done_ = -1;  // the step count the last printed line showed
  // Σ over measured intervals of (steps/second)·weight and of weight, each decayed by e^{−age/τ}: rate = ratio.
  double weighted_rates_ = 0.0;
  double weights_ = 0.0;
};

}  // namespace rbmix
