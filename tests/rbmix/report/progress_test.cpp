#include "rbmix/report/progress.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace rbmix {
namespace {

using ::testing::HasSubstr;

// A clock the test moves by hand.
struct ManualClock {
  double now = 0.0;
  ProgressReporter::Clock clock() {
    return [this] { return now; };
  }
};

std::string contents(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  for (int c = std::fgetc(file); c != EOF; c = std::fgetc(file)) text.push_back(static_cast<char>(c));
  return text;
}

TEST(FormatDuration, HoursMinutesSeconds) {
  EXPECT_EQ(format_duration(0.0), "0:00:00");
  EXPECT_EQ(format_duration(3725.4), "1:02:05");
  EXPECT_EQ(format_duration(-3.0), "0:00:00");
}

TEST(ProgressReporter, AtASteadyPaceTheRateIsExactAndTheTimeLeftFalls) {
  ManualClock time;
  ProgressReporter progress("train", "update", 1000, ProgressMode::never, nullptr, 0, time.clock());
  EXPECT_FALSE(progress.seconds_left());
  double previous_left = 1e300;
  for (int step = 1; step <= 500; ++step) {
    time.now += 0.5;
    progress.update(step);
    EXPECT_DOUBLE_EQ(*progress.rate(), 2.0);
    EXPECT_LT(*progress.seconds_left(), previous_left);
    previous_left = *progress.seconds_left();
  }
  EXPECT_DOUBLE_EQ(*progress.seconds_left(), 250.0);
}

// One slow step (an evaluation taking 20 steps' time) moves the estimate of the time left by a bounded amount:
// the smoothing weighs the slow interval 1 − e^{−Δt/τ}, not 1 as the rate of the last interval alone would.
TEST(ProgressReporter, OneSlowStepMovesTheEstimateALittle) {
  ManualClock time;
  ProgressReporter progress("train", "update", 1000, ProgressMode::never, nullptr, 0, time.clock());
  for (int step = 1; step <= 100; ++step) {
    time.now += 0.5;
    progress.update(step);
  }
  const double before = *progress.seconds_left();
  time.now += 10.0;
  progress.update(101);
  const double after = *progress.seconds_left();
  // The last interval alone says 0.1 steps/s, i.e. 8990 s left; the smoothed rate 2 + (1 − e^{−1})(0.1 − 2) ≈ 0.80.
  EXPECT_GT(after, before);
  EXPECT_LT(after, 3.0 * before);
  for (int step = 102; step <= 200; ++step) {
    time.now += 0.5;
    progress.update(step);
  }
  // Back at the steady pace the estimate returns towards 2 steps/s.
  EXPECT_NEAR(*progress.rate(), 2.0, 0.05);
}

TEST(ProgressReporter, NeverWritesNothingAndAlwaysWritesLinesToAFile) {
  ManualClock time;
  std::FILE* quiet = std::tmpfile();
  ASSERT_NE(quiet, nullptr);
  {
    ProgressReporter progress("train", "update", 10, ProgressMode::never, quiet, 0, time.clock());
    for (int step = 1; step <= 10; ++step) {
      time.now += 5.0;
      progress.update(step, "train LL -1.5");
    }
  }
  EXPECT_EQ(contents(quiet), "");
  std::fclose(quiet);

  std::FILE* log = std::tmpfile();
  ASSERT_NE(log, nullptr);
  {
    ProgressReporter automatic("train", "update", 10, ProgressMode::automatic, log, 0, time.clock());
    automatic.update(10);
  }
  EXPECT_EQ(contents(log), "") << "a file is not a terminal: quiet unless asked";
  {
    ProgressReporter progress("train", "update", 10, ProgressMode::always, log, 0, time.clock());
    for (int step = 1; step <= 10; ++step) {
      time.now += 5.0;
      progress.update(step, "train LL -1.5");
    }
  }
  const std::string text = contents(log);
  std::fclose(log);
  EXPECT_EQ(text.find('\r'), std::string::npos) << "a log gets whole lines";
  EXPECT_THAT(text, HasSubstr("train: update 10/10 (100%)"));
  EXPECT_THAT(text, HasSubstr("0.2/s"));
  EXPECT_THAT(text, HasSubstr("train LL -1.5"));
  // Lines at most every log_interval (10 s): 50 s of steps give 5 lines and the final state once.
  int lines = 0;
  for (const char c : text) lines += c == '\n' ? 1 : 0;
  EXPECT_EQ(lines, 5);
}

}  // namespace
}  // namespace rbmix
