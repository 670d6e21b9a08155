#include "rbmix/jobs/job_grid.hpp"

#include <omp.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "rbmix/core/error.hpp"
#include "rbmix/jobs/mpi_job_backend.hpp"

namespace rbmix::experiments {
namespace {

// How often the progress thread refreshes the line (the reporter prints at most every 0.25 s on a terminal and
// every 10 s in a log).
constexpr std::chrono::seconds heartbeat_interval{1};

JobOutcome run_one(const std::function<std::string(std::size_t, const JobProgress&)>& job, std::size_t index,
                   const JobProgress& progress) {
  try {
    return {true, job(index, progress)};
  } catch (const std::exception& error) {
    return {false, error.what()};
  }
}

// `slots` holds one slot per thread of the team: each job reports its progress into its thread's.
void run_on_threads(const std::vector<std::size_t>& todo, std::vector<JobProgressSlot>& slots,
                    const std::function<JobOutcome(std::size_t, const JobProgress&)>& job,
                    const std::function<void(std::size_t, const JobOutcome&)>& finished) {
  const auto count = static_cast<std::int64_t>(todo.size());
  std::exception_ptr journal_failure;
#pragma omp parallel for schedule(dynamic) num_threads(static_cast<int>(slots.size()))
  for (std::int64_t k = 0; k < count; ++k) {
    omp_set_num_threads(1);
    const std::size_t index = todo[static_cast<std::size_t>(k)];
    JobProgressSlot& slot = slots[static_cast<std::size_t>(omp_get_thread_num())];
    slot.start(index);
    const JobOutcome outcome = job(index, JobProgress(slot));
    slot.finish();
#pragma omp critical(rbmix_job_grid)
    try {
      finished(index, outcome);
    } catch (...) {
      if (!journal_failure) journal_failure = std::current_exception();
    }
  }
  if (journal_failure) std::rethrow_exception(journal_failure);
}

}  // namespace

JobGrid::JobGrid(JobGridSettings settings) : settings_(std::move(settings)) {}

std::filesystem::path JobGrid::journal_file(JobPhase phase, std::size_t job) const {
  return JobJournal(settings_.directory, phase.number, settings_.identity).job_file(job);
}

void JobGrid::check_or_write_identity(std::size_t phase, std::size_t count) {
  nlohmann::json record = read_grid_record(settings_.directory);
  const std::string journal = journal_directory(settings_.directory).string();
  if (phase == 0 && !settings_.resume) {
    // A fresh run replaces the journal of an earlier one in the same directory.
    std::filesystem::remove_all(journal_directory(settings_.directory));
    record = nullptr;
  }
  if (record.is_null()) {
    record = {
        {"identity", settings_.identity}, {"shard", settings_.shard.to_string()}, {"jobs", nlohmann::json::array()}};
  } else {
    const std::string differ = differing_keys(settings_.identity, record.at("identity"));
    require(differ.empty(), "--resume: the journal in '" + journal + "' is of another grid (" + differ +
                                " differ); resume with the same arguments, or choose another --out");
    // A merged journal (shard 1/1) may be resumed as any shard: that is how the shards of a grid whose later phase
    // needs the whole of an earlier one go on to that phase (`experiment merge --journal-only`).
    const std::string shard = record.at("shard").get<std::string>();
    require(shard == settings_.shard.to_string() || shard == JobShard{}.to_string(),
            "--resume: the journal in '" + journal + "' is of shard " + shard + ", not " + settings_.shard.to_string());
    record["shard"] = settings_.shard.to_string();
  }
  auto& jobs = record["jobs"];
  if (jobs.size() < phase)
    throw std::logic_error("grid phase " + std::to_string(phase) + " run before phase " + std::to_string(jobs.size()));
  if (jobs.size() > phase)
    require(jobs[phase].get<std::size_t>() == count, "--resume: the journal in '" + journal + "' has " +
                                                         jobs[phase].dump() + " jobs in phase " +
                                                         std::to_string(phase) + ", this run " + std::to_string(count));
  else
    jobs.push_back(count);
  write_grid_record(settings_.directory, record);
}

OrPartDone<std::vector<std::string>> JobGrid::run(
    JobPhase job_phase, std::size_t count, int threads,
    const std::function<std::string(std::size_t, const JobProgress&)>& job) {
  const std::size_t phase = job_phase.number;
  const bool distributed = mpi_world_active();
  const bool coordinator = mpi_rank() == 0;
  std::map<std::size_t, JobOutcome> outcomes;
  std::vector<std::size_t> todo;
  std::optional<JobJournal> journal;
  std::exception_ptr refusal;  // raised on rank 0 after the workers were released, so that none waits forever
  if (coordinator) try {
      check_or_write_identity(phase, count);
      journal.emplace(settings_.directory, phase, settings_.identity);
      if (settings_.resume) {
        outcomes = journal->read();
        std::erase_if(outcomes, [&](const auto& entry) { return entry.first >= count || !entry.second.succeeded; });
      }
      for (std::size_t index = 0; index < count; ++index)
        if (settings_.shard.holds(index) && !outcomes.contains(index)) todo.push_back(index);
    } catch (...) {
      refusal = std::current_exception();
      todo.clear();
    }

  // The smoothed rate of report/progress.hpp: jobs of uneven length finishing in bursts move the ETA a little.
  ProgressReporter progress("grid phase " + std::to_string(phase), "job",
                            static_cast<std::int64_t>(todo.size() + outcomes.size()),
                            coordinator ? settings_.progress : ProgressMode::never, stderr,
                            static_cast<std::int64_t>(outcomes.size()));
  // The jobs running on this process's threads and how far each has got (job_progress.hpp): the line shows them
  // between finishes, refreshed by a progress thread. Jobs on other MPI ranks show only when they finish.
  std::vector<JobProgressSlot> slots(
      distributed ? 0 : static_cast<std::size_t>(threads > 0 ? threads : omp_get_max_threads()));
  std::mutex progress_mutex;  // the reporter, `outcomes` and the journal, between the workers and the progress thread
  const auto running = [&slots] {
    std::string note;
    for (const JobProgressSlot& slot : slots) {
      const std::string job = slot.describe();
      if (!job.empty()) note += (note.empty() ? "running " : ", ") + job;
    }
    return note.empty() ? std::string("no job running") : note;
  };
  const auto finished = [&](std::size_t index, const JobOutcome& outcome) {
    const std::lock_guard lock(progress_mutex);
    journal->record(index, outcome);
    outcomes[index] = outcome;
    progress.update(static_cast<std::int64_t>(outcomes.size()), running());
  };
  if (distributed) {
    // Jobs on other ranks show only when they finish: their progress reaches no line.
    run_mpi_jobs(
        todo, threads, [&job](std::size_t index) { return run_one(job, index, JobProgress()); }, finished);
  } else {
    std::condition_variable wake;
    bool phase_done = false;
    std::thread heartbeat;
    if (progress.enabled() && !todo.empty())
      heartbeat = std::thread([&] {
        std::unique_lock lock(progress_mutex);
        while (!wake.wait_for(lock, heartbeat_interval, [&] { return phase_done; }))
          progress.update(static_cast<std::int64_t>(outcomes.size()), running());
      });
    const auto stop_heartbeat = [&] {
      if (!heartbeat.joinable()) return;
      {
        const std::lock_guard lock(progress_mutex);
        phase_done = true;
      }
      wake.notify_all();
      heartbeat.join();
    };
    try {
      run_on_threads(
          todo, slots, [&job](std::size_t index, const JobProgress& progress) { return run_one(job, index, progress); },
          finished);
    } catch (...) {
      stop_heartbeat();
      throw;
    }
    stop_heartbeat();
  }
  progress.finish();

  // On rank 0: whether the experiment can go on with every result, or why not.
  std::exception_ptr stop = refusal;
  std::optional<PartDone> part_done;
  std::vector<std::string> texts;
  if (coordinator && !stop) try {
      std::string failures;
      std::size_t failed = 0;
      for (const auto& [index, outcome] : outcomes)
        if (!outcome.succeeded && failed++ == 0) failures = "job " + std::to_string(index) + " failed: " + outcome.text;
      require(failed == 0, failures + " (" + std::to_string(failed) + " of " + std::to_string(outcomes.size()) +
                               " jobs failed; the others are journaled in '" + journal->path().string() +
                               "': rerun with --resume to run only the failed and missing jobs)");
      // A shard goes on to the next phase only when this phase is whole in its journal (resumed from a merge): the
      // next phase may need every result of this one.
      if (outcomes.size() < count)
        part_done = PartDone{"shard " + settings_.shard.to_string() + ": " + std::to_string(outcomes.size()) + " of " +
                             std::to_string(count) + " jobs of phase " + std::to_string(phase) + " journaled in '" +
                             journal->path().string() +
                             "'; combine the shards with `rbmix experiment merge --out DIR SHARD_DIR...`"};
      else
        for (auto& [index, outcome] : outcomes) texts.push_back(std::move(outcome.text));
    } catch (...) {
      stop = std::current_exception();
    }
  // Every rank goes on with the same results (the experiment's next phase may need them); only rank 0 writes.
  if (distributed && !share_mpi_texts(texts, !stop && !part_done) && !coordinator) return PartDone{};
  if (stop) std::rethrow_exception(stop);
  if (part_done) return *std::move(part_done);
  return texts;
}

}  // namespace rbmix::experiments
