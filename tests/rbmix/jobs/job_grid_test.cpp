#include "rbmix/jobs/job_grid.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>

#include "rbmix/core/error.hpp"
#include "rbmix/experiments/exact_number.hpp"
#include "rbmix/jobs/job_progress.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix::experiments {
namespace {

struct Root {
  std::size_t index = 0;
  double value = 0.0;
};

nlohmann::json to_grid_json(const Root& root) { return {{"index", root.index}, {"value", exact_number(root.value)}}; }
void from_grid_json(const nlohmann::json& json, Root& root) {
  root.index = json.at("index").get<std::size_t>();
  root.value = read_exact_number(json.at("value"));
}

static_assert(GridSerializable<Root>);
static_assert(!GridSerializable<std::size_t>);

// Jobs whose results have no short decimal form, so that an inexact round trip would show.
Root root_job(std::size_t index) { return {index, std::sqrt(static_cast<double>(index) + 0.1)}; }

JobGridSettings settings_in(const std::filesystem::path& directory) {
  JobGridSettings settings;
  settings.directory = directory;
  settings.identity = {{"arguments", {"roots"}}, {"seed", 1}};
  settings.progress = ProgressMode::never;
  return settings;
}

void expect_roots(const OrPartDone<std::vector<Root>>& roots, std::size_t count) {
  ASSERT_TRUE(roots.whole()) << roots.part_done().message;
  ASSERT_EQ(roots.value().size(), count);
  for (std::size_t index = 0; index < count; ++index) {
    EXPECT_EQ(roots.value()[index].index, index);
    EXPECT_EQ(roots.value()[index].value, root_job(index).value);  // bit for bit
  }
}

// The part-done message names the shard, how much of the phase is journaled and how to combine the shards.
void expect_part_done(const OrPartDone<std::vector<Root>>& share, const std::string& shard_and_count) {
  ASSERT_FALSE(share.whole());
  EXPECT_EQ(share.part_done().message.rfind(shard_and_count + " journaled in '", 0), 0u) << share.part_done().message;
  EXPECT_NE(share.part_done().message.find("rbmix experiment merge"), std::string::npos);
}

TEST(JobGrid, ResultsThroughTheJournalEqualThoseKeptInMemory) {
  rbmix::testing::TemporaryDirectory directory;
  const auto in_memory = run_jobs(JobRunner(2), JobPhase{0}, 30, root_job);  // no grid: threads only
  JobGrid grid(settings_in(directory.path()));
  expect_roots(run_jobs(JobRunner(3, &grid), JobPhase{0}, 30, root_job), 30);
  EXPECT_EQ(JobJournal(directory.path(), 0, settings_in(directory.path()).identity).read().size(), 30u);
  // A second run_jobs of the same experiment is its next phase, journaled apart.
  expect_roots(run_jobs(JobRunner(1, &grid), JobPhase{1}, 4, root_job), 4);
  EXPECT_EQ(JobJournal(directory.path(), 1, settings_in(directory.path()).identity).read().size(), 4u);
  expect_roots(in_memory, 30);
}

TEST(JobGrid, ResumeRunsOnlyTheJobsNotJournaled) {
  rbmix::testing::TemporaryDirectory directory;
  {
    JobGrid grid(settings_in(directory.path()));
    run_jobs(JobRunner(2, &grid), JobPhase{0}, 20, root_job);
  }
  const JobJournal journal(directory.path(), 0, settings_in(directory.path()).identity);
  for (const std::size_t lost : {0, 7, 19}) std::filesystem::remove(journal.job_file(lost));
  JobGridSettings settings = settings_in(directory.path());
  settings.resume = true;
  JobGrid grid(settings);
  std::vector<std::atomic<int>> calls(20);
  expect_roots(run_jobs(JobRunner(2, &grid), JobPhase{0}, 20,
                        [&](std::size_t index) {
                          ++calls[index];
                          return root_job(index);
                        }),
               20);
  for (std::size_t index = 0; index < 20; ++index)
    EXPECT_EQ(calls[index].load(), index == 0 || index == 7 || index == 19 ? 1 : 0) << "job " << index;
}

TEST(JobGrid, AShardRunsItsShareAndStops) {
  rbmix::testing::TemporaryDirectory directory;
  JobGridSettings settings = settings_in(directory.path());
  settings.shard = {2, 3};
  JobGrid grid(settings);
  std::vector<std::atomic<int>> calls(10);
  expect_part_done(run_jobs(JobRunner(2, &grid), JobPhase{0}, 10,
                            [&](std::size_t index) {
                              ++calls[index];
                              return root_job(index);
                            }),
                   "shard 2/3: 3 of 10 jobs of phase 0");
  for (std::size_t index = 0; index < 10; ++index) EXPECT_EQ(calls[index].load(), index % 3 == 1 ? 1 : 0);
  EXPECT_EQ(JobJournal(directory.path(), 0, settings_in(directory.path()).identity).read().size(), 3u);
  EXPECT_EQ(read_grid_record(directory.path()).at("shard"), "2/3");
}

// A later phase may need every result of an earlier one: a shard stops at the first phase its journal does not
// hold whole; resumed from a merged journal (shard 1/1) it goes on to its share of the next phase.
TEST(JobGrid, AShardResumedFromAWholePhaseRunsItsShareOfTheNext) {
  rbmix::testing::TemporaryDirectory directory;
  {
    JobGrid grid(settings_in(directory.path()));
    run_jobs(JobRunner(2, &grid), JobPhase{0}, 6, root_job);
  }
  JobGridSettings settings = settings_in(directory.path());
  settings.shard = {1, 2};
  settings.resume = true;
  JobGrid grid(settings);
  std::atomic<int> first_phase_calls{0};
  expect_roots(run_jobs(JobRunner(2, &grid), JobPhase{0}, 6,
                        [&](std::size_t index) {
                          ++first_phase_calls;
                          return root_job(index);
                        }),
               6);
  EXPECT_EQ(first_phase_calls.load(), 0);
  std::vector<std::atomic<int>> calls(5);
  expect_part_done(run_jobs(JobRunner(2, &grid), JobPhase{1}, 5,
                            [&](std::size_t index) {
                              ++calls[index];
                              return root_job(index);
                            }),
                   "shard 1/2: 3 of 5 jobs of phase 1");
  for (std::size_t index = 0; index < 5; ++index) EXPECT_EQ(calls[index].load(), index % 2 == 0 ? 1 : 0);
  EXPECT_EQ(JobJournal(directory.path(), 1, settings_in(directory.path()).identity).read().size(), 3u);
  EXPECT_EQ(read_grid_record(directory.path()).at("shard"), "1/2");
}

// A job that throws is journaled with its message; the others run and are journaled; a resume reruns only it.
TEST(JobGrid, AFailedJobIsRecordedAndDoesNotStopTheOthers) {
  rbmix::testing::TemporaryDirectory directory;
  {
    JobGrid grid(settings_in(directory.path()));
    try {
      run_jobs(JobRunner(2, &grid), JobPhase{0}, 12, [](std::size_t index) {
        if (index == 4) throw InputError("--learning-rate diverged");
        return root_job(index);
      });
      FAIL() << "no exception";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("job 4 failed: --learning-rate diverged"), std::string::npos)
          << error.what();
    }
  }
  const auto journaled = JobJournal(directory.path(), 0, settings_in(directory.path()).identity).read();
  ASSERT_EQ(journaled.size(), 12u);
  EXPECT_FALSE(journaled.at(4).succeeded);
  EXPECT_EQ(journaled.at(4).text, "--learning-rate diverged");

  JobGridSettings settings = settings_in(directory.path());
  settings.resume = true;
  JobGrid grid(settings);
  std::atomic<int> calls{0};
  expect_roots(run_jobs(JobRunner(2, &grid), JobPhase{0}, 12,
                        [&](std::size_t index) {
                          ++calls;
                          return root_job(index);
                        }),
               12);
  EXPECT_EQ(calls.load(), 1);
}

TEST(JobProgress, DescribesTheStageAndFractionOfTheRunningJob) {
  JobProgressSlot slot;
  EXPECT_EQ(slot.describe(), "");
  const JobProgress nowhere;  // a job outside a grid: nothing to report into
  nowhere.stage("outside");
  nowhere.fraction(0.5);
  const JobProgress progress(slot);
  slot.start(3);
  EXPECT_EQ(slot.describe(), "job 3: started");
  progress.stage("gibbs chain");
  EXPECT_EQ(slot.describe(), "job 3: gibbs chain");
  progress.fraction(0.414);
  EXPECT_EQ(slot.describe(), "job 3: gibbs chain 41 %");
  progress.fraction(7.0);
  EXPECT_EQ(slot.describe(), "job 3: gibbs chain 100 %");
  progress.fraction(-1.0);
  EXPECT_EQ(slot.describe(), "job 3: gibbs chain 0 %");
  progress.fraction(std::nan(""));
  EXPECT_EQ(slot.describe(), "job 3: gibbs chain");
  progress.training(200)(50);
  EXPECT_EQ(slot.describe(), "job 3: training 25 %");
  slot.finish();
  EXPECT_EQ(slot.describe(), "");
  slot.start(4);
  EXPECT_EQ(slot.describe(), "job 4: started");  // a new job starts without the last one's stage
  slot.finish();
}

// The phases of an experiment are named by their run_jobs: one run before those below it is refused.
TEST(JobGrid, RefusesAPhaseRunBeforeThoseBelowIt) {
  rbmix::testing::TemporaryDirectory directory;
  JobGrid grid(settings_in(directory.path()));
  EXPECT_THROW(run_jobs(JobRunner(1, &grid), JobPhase{1}, 3, root_job), std::logic_error);
  expect_roots(run_jobs(JobRunner(1, &grid), JobPhase{0}, 3, root_job), 3);
  expect_roots(run_jobs(JobRunner(1, &grid), JobPhase{1}, 2, root_job), 2);
}

// With the progress line on, a progress thread refreshes it from the running jobs' reports while they run: it must
// stop with the phase, also when a job failed (a thread left running would end the process), and the last line
// counts every job.
TEST(JobGrid, TheProgressThreadStopsWithThePhaseAlsoWhenAJobFails) {
  rbmix::testing::TemporaryDirectory directory;
  JobGridSettings settings = settings_in(directory.path());
  settings.progress = ProgressMode::always;
  JobGrid grid(settings);
  ::testing::internal::CaptureStderr();
  try {
    run_jobs(JobRunner(2, &grid), JobPhase{0}, 3, [](std::size_t index, const JobProgress& progress) {
      progress.stage("sleeping");
      for (int tenth = 1; tenth <= 12; ++tenth) {  // past the progress thread's 1 s refresh
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        progress.fraction(tenth / 12.0);
      }
      if (index == 1) throw InputError("diverged");
      return root_job(index);
    });
    ADD_FAILURE() << "no exception";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("job 1 failed: diverged"), std::string::npos) << error.what();
  }
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("grid phase 0"), std::string::npos) << log;
  EXPECT_NE(log.find("3/3"), std::string::npos) << log;
  EXPECT_NE(log.find("no job running"), std::string::npos) << log;
}

TEST(JobGrid, ResumeRefusesTheJournalOfAnotherGrid) {
  rbmix::testing::TemporaryDirectory directory;
  {
    JobGrid grid(settings_in(directory.path()));
    run_jobs(JobRunner(1, &grid), JobPhase{0}, 3, root_job);
  }
  JobGridSettings settings = settings_in(directory.path());
  settings.resume = true;
  settings.identity["seed"] = 2;
  JobGrid grid(settings);
  try {
    run_jobs(JobRunner(1, &grid), JobPhase{0}, 3, root_job);
    FAIL() << "no exception";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("(seed differ)"), std::string::npos) << error.what();
  }
}

// A grid journals results as text: run_jobs takes only results that say how (checked when compiled).
template <typename Job>
concept RunnableOnAGrid = requires(const JobRunner& runner, Job job) {
  run_jobs(runner, JobPhase{0}, 1, job);
};
static_assert(RunnableOnAGrid<Root (*)(std::size_t)>);
static_assert(!RunnableOnAGrid<std::size_t (*)(std::size_t)>);

// A journaled result that cannot be read back (a value out of a double's range, or no number at all, under an
// intact checksum) is refused naming the job and its file, not only the value.
TEST(JobGrid, AnUnreadableJournaledResultNamesItsJobAndFile) {
  for (const char* value : {"0x1p+99999", "1e999", "0x"}) {
    rbmix::testing::TemporaryDirectory directory;
    {
      JobGrid grid(settings_in(directory.path()));
      run_jobs(JobRunner(1, &grid), JobPhase{0}, 5, root_job);
    }
    const JobJournal journal(directory.path(), 0, settings_in(directory.path()).identity);
    journal.record(3, {true, nlohmann::json{{"index", 3}, {"value", value}}.dump()});
    JobGridSettings settings = settings_in(directory.path());
    settings.resume = true;
    JobGrid grid(settings);
    try {
      run_jobs(JobRunner(1, &grid), JobPhase{0}, 5, root_job);
      ADD_FAILURE() << value << ": no exception";
    } catch (const InputError& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find("job 3"), std::string::npos) << message;
      EXPECT_NE(message.find(journal.job_file(3).string()), std::string::npos) << message;
      EXPECT_NE(message.find(value), std::string::npos) << message;
    }
  }
}

}  // namespace
}  // namespace rbmix::experiments
