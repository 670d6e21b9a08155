#include "rbmix/jobs/job_runner.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>

namespace rbmix::experiments {
namespace {

TEST(JobRunner, ResultsComeBackInIndexOrderWhateverTheThreadCount) {
  for (const int threads : {1, 2, 3}) {
    std::vector<std::size_t> squares(50);
    JobRunner(threads).run(squares.size(), [&](std::size_t index) { squares[index] = index * index; });
    for (std::size_t index = 0; index < squares.size(); ++index) EXPECT_EQ(squares[index], index * index);
  }
  bool called = false;
  JobRunner().run(0, [&](std::size_t) { called = true; });
  EXPECT_FALSE(called);
}

TEST(JobRunner, EveryJobRunsOnce) {
  std::vector<std::atomic<int>> calls(40);
  JobRunner(2).run(calls.size(), [&](std::size_t index) { ++calls[index]; });
  for (const auto& count : calls) EXPECT_EQ(count.load(), 1);
}

// Every job still runs when some throw; the error of the lowest failing index is the one rethrown.
TEST(JobRunner, RethrowsTheLowestFailingIndexAfterAllJobsRan) {
  std::atomic<int> ran{0};
  try {
    JobRunner(2).run(30, [&](std::size_t index) {
      ++ran;
      if (index == 7 || index == 20) throw std::runtime_error("job " + std::to_string(index));
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), "job 7");
  }
  EXPECT_EQ(ran.load(), 30);
}

}  // namespace
}  // namespace rbmix::experiments
