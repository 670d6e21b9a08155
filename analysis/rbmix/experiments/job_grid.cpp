#include "rbmix/experiments/job_grid.hpp"

#include <omp.h>

#include <cstdint>
#include <iostream>
#include <map>
#include <optional>

#include "rbmix/core/error.hpp"
#include "rbmix/experiments/mpi_job_backend.hpp"

namespace rbmix::experiments {
namespace {

JobOutcome run_one(const std::function<std::string(std::size_t)>& job, std::size_t index) {
  try {
    return {true, job(index)};
  } catch (const std::exception& error) {
    return {false, error.what()};
  }
}

void run_on_threads(const std::vector<std::size_t>& todo, int threads,
                    const std::function<JobOutcome(std::size_t)>& job,
                    const std::function<void(std::size_t, const JobOutcome&)>& finished) {
  const int team = threads > 0 ? threads : omp_get_max_threads();
  const auto count = static_cast<std::int64_t>(todo.size());
  std::exception_ptr journal_failure;
#pragma omp parallel for schedule(dynamic) num_threads(team)
  for (std::int64_t k = 0; k < count; ++k) {
    omp_set_num_threads(1);
    const std::size_t index = todo[static_cast<std::size_t>(k)];
    const JobOutcome outcome = job(index);
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

std::filesystem::path JobGrid::journal_file(std::size_t job) const {
  return JobJournal(settings_.directory, next_phase_ == 0 ? 0 : next_phase_ - 1, settings_.identity).job_file(job);
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
  if (jobs.size() > phase)
    require(jobs[phase].get<std::size_t>() == count, "--resume: the journal in '" + journal + "' has " +
                                                         jobs[phase].dump() + " jobs in phase " +
                                                         std::to_string(phase) + ", this run " + std::to_string(count));
  else
    jobs.push_back(count);
  write_grid_record(settings_.directory, record);
}

std::vector<std::string> JobGrid::run(std::size_t count, int threads,
                                      const std::function<std::string(std::size_t)>& job) {
  const std::size_t phase = next_phase_++;
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
  const auto finished = [&](std::size_t index, const JobOutcome& outcome) {
    journal->record(index, outcome);
    outcomes[index] = outcome;
    progress.update(static_cast<std::int64_t>(outcomes.size()));
  };
  const auto attempt = [&job](std::size_t index) { return run_one(job, index); };
  if (distributed)
    run_mpi_jobs(todo, threads, attempt, finished);
  else
    run_on_threads(todo, threads, attempt, finished);
  progress.finish();

  // On rank 0: whether the experiment can go on with every result, or why not.
  std::exception_ptr stop = refusal;
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
        throw GridPartDone("shard " + settings_.shard.to_string() + ": " + std::to_string(outcomes.size()) + " of " +
                           std::to_string(count) + " jobs of phase " + std::to_string(phase) + " journaled in '" +
                           journal->path().string() +
                           "'; combine the shards with `rbmix experiment merge --out DIR SHARD_DIR...`");
      texts.reserve(count);
      for (auto& [index, outcome] : outcomes) texts.push_back(std::move(outcome.text));
    } catch (...) {
      stop = std::current_exception();
    }
  // Every rank goes on with the same results (the experiment's next phase may need them); only rank 0 writes.
  if (distributed && !share_mpi_texts(texts, !stop) && !coordinator) throw GridPartDone("");
  if (stop) std::rethrow_exception(stop);
  return texts;
}

}  // namespace rbmix::experiments
