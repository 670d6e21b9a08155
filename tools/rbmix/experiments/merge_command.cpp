// rbmix experiment merge --out DIR SHARD_DIR...: combines the journals of the shards of one grid (`--shard I/N`
// runs, job_shard.hpp) into DIR, phase by phase, and runs the experiment there on the journaled results, which
// writes the same outputs as one run of the whole grid (a phase that no shard reached runs there in full). With
// --journal-only it stops after the journal: the shards resume copies of DIR to run their shares of the next phase.
// Refuses shards of different grids (arguments, seed, version), a missing or repeated shard, a journal entry that is
// not of its shard's grid, phase and job (job_journal.hpp), and names the jobs that are missing or failed.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/io/output_directory_lock.hpp"
#include "rbmix/jobs/job_journal.hpp"
#include "rbmix/jobs/job_shard.hpp"

namespace rbmix::cli::merge_command {
namespace {

struct MergeArguments {
  std::string out;
  std::vector<std::string> shards;
  bool journal_only = false;
};

struct Shard {
  std::filesystem::path directory;
  nlohmann::json record;
  experiments::JobShard share;
};

std::string quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

Shard read_shard(const std::filesystem::path& directory) {
  // read_grid_record refuses a damaged grid.json by name, so its fields hold what they should.
  Shard shard{directory, experiments::read_grid_record(directory), {}};
  require(!shard.record.is_null(),
          "merge: " + quoted(directory) + " holds no grid journal (journal/grid.json): not a --shard run's --out");
  shard.share = experiments::parse_shard(shard.record.at("shard").get<std::string>());
  require(!shard.record.at("jobs").empty(), "merge: " + quoted(directory) + " has not journaled a phase");
  return shard;
}

// Refuses `shard` unless it is of the same grid as `first`, naming what differs.
void require_same_grid(const Shard& first, const Shard& shard) {
  const nlohmann::json &ours = first.record.at("identity"), &theirs = shard.record.at("identity");
  const auto command = [](const nlohmann::json& identity) {
    std::string text;
    for (const auto& token : identity.at("arguments")) text += (text.empty() ? "" : " ") + token.get<std::string>();
    return text;
  };
  require(ours.at("arguments") == theirs.at("arguments"), "merge: shard " + quoted(shard.directory) +
                                                              " is of another grid: `" + command(theirs) + "`, not `" +
                                                              command(ours) + "` as " + quoted(first.directory));
  require(ours.at("seed") == theirs.at("seed"), "merge: shard " + quoted(shard.directory) + " was run with seed " +
                                                    theirs.at("seed").dump() + ", shard " + quoted(first.directory) +
                                                    " with seed " + ours.at("seed").dump());
  require(ours == theirs, "merge: shard " + quoted(shard.directory) + " was run by rbmix " +
                              theirs.value("rbmix_version", "?") + ", " + quoted(first.directory) + " by rbmix " +
                              ours.value("rbmix_version", "?"));
  const nlohmann::json &first_jobs = first.record.at("jobs"), &shard_jobs = shard.record.at("jobs");
  for (std::size_t phase = 0; phase < std::min(first_jobs.size(), shard_jobs.size()); ++phase)
    require(first_jobs.at(phase) == shard_jobs.at(phase),
            "merge: shard " + quoted(shard.directory) + " has another number of jobs in phase " +
                std::to_string(phase) + " than " + quoted(first.directory));
  require(shard.share.count == first.share.count, "merge: shard " + quoted(shard.directory) + " is " +
                                                      shard.share.to_string() + ", shard " + quoted(first.directory) +
                                                      " " + first.share.to_string() + ": not one split");
}

// Runs this program with `arguments` and waits for it; its exit status.
int run_self(const std::vector<std::string>& arguments) {
  std::vector<char*> argv;
  std::string self = "/proc/self/exe";
  argv.push_back(self.data());
  std::vector<std::string> copies = arguments;
  for (auto& argument : copies) argv.push_back(argument.data());
  argv.push_back(nullptr);
  std::cout.flush();
  const pid_t child = fork();
  require(child >= 0, "merge: cannot start the experiment");
  if (child == 0) {
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void merge(const MergeArguments& arguments) {
  require(!arguments.shards.empty(), "merge: name the shards' output directories");
  std::vector<Shard> shards;
  for (const auto& directory : arguments.shards) shards.push_back(read_shard(directory));
  std::map<std::size_t, const Shard*> by_number;
  for (const Shard& shard : shards) {
    require_same_grid(shards.front(), shard);
    const auto [place, inserted] = by_number.emplace(shard.share.number, &shard);
    require(inserted, "merge: shard " + shard.share.to_string() +
                          " is given twice: " + quoted(place->second->directory) + " and " + quoted(shard.directory));
  }
  const std::size_t count = shards.front().share.count;
  for (std::size_t number = 1; number <= count; ++number)
    require(by_number.contains(number), "merge: shard " + std::to_string(number) + "/" + std::to_string(count) +
                                            " is missing (given " + std::to_string(shards.size()) + " of " +
                                            std::to_string(count) + ")");

  // The phases every shard reached; a shard stops at the first phase its journal does not hold whole, so that is
  // the same phase for all of them (unless a shard held every job of a phase by itself).
  std::size_t phases = shards.front().record.at("jobs").size();
  for (const Shard& shard : shards) phases = std::min(phases, shard.record.at("jobs").size());
  const nlohmann::json& jobs_per_phase = shards.front().record.at("jobs");

  std::vector<std::map<std::size_t, experiments::JobOutcome>> outcomes(phases);
  for (std::size_t phase = 0; phase < phases; ++phase) {
    const auto jobs = jobs_per_phase.at(phase).get<std::size_t>();
    std::string missing, failed;
    for (const Shard& shard : shards) {
      const auto journaled = experiments::JobJournal(shard.directory, phase, shard.record.at("identity")).read();
      for (std::size_t job = 0; job < jobs; ++job) {
        if (!shard.share.holds(job)) continue;
        const auto entry = journaled.find(job);
        const std::string where = std::to_string(job) + " (shard " + shard.share.to_string() + ")";
        if (entry == journaled.end())
          missing += (missing.empty() ? "" : ", ") + where;
        else if (!entry->second.succeeded)
          failed += (failed.empty() ? "" : "; ") + where + ": " + entry->second.text;
        else
          outcomes[phase].emplace(job, entry->second);
      }
    }
    const std::string in_phase = phases > 1 ? " in phase " + std::to_string(phase) : "";
    require(missing.empty(), "merge: jobs missing" + in_phase + ": " + missing + "; finish those shards with --resume");
    require(failed.empty(), "merge: jobs failed" + in_phase + ": " + failed + "; rerun those shards with --resume");
  }

  const std::filesystem::path out = arguments.out;
  nlohmann::json record = shards.front().record;
  {
    // Released before the experiment below, a process of its own, takes the directory for the rest.
    const OutputDirectoryLock lock(out);
    std::filesystem::remove_all(experiments::journal_directory(out));
    record["shard"] = experiments::JobShard{}.to_string();
    record["jobs"] = nlohmann::json::array();
    for (std::size_t phase = 0; phase < phases; ++phase) {
      record["jobs"].push_back(jobs_per_phase.at(phase));
      const experiments::JobJournal journal(out, phase, record.at("identity"));
      for (const auto& [job, outcome] : outcomes[phase]) journal.record(job, outcome);
    }
    experiments::write_grid_record(out, record);
  }

  std::vector<std::string> command{"experiment"};
  for (const auto& token : record.at("identity").at("arguments")) command.push_back(token.get<std::string>());
  command.insert(command.end(), {"--seed", record.at("identity").at("seed").dump()});
  if (arguments.journal_only) {
    std::string text = "rbmix";
    for (const auto& token : command) text += " " + token;
    std::cout << "merged " << phases << " phase(s) of " << shards.size() << " shards into "
              << experiments::journal_directory(out).string() << ". To finish the grid here: " << text << " --out "
              << out.string() << " --resume; or copy " << out.string()
              << " to each shard's --out and run the shards again with --resume to spread the next phase.\n";
    return;
  }
  // The experiment itself, on the merged journal: every merged job is found there, none runs again.
  command.insert(command.end(), {"--out", out.string(), "--resume"});
  const int status = run_self(command);
  // The experiment's refusal (a damaged result, named above) is the merge's: the same status.
  require(status != 2, "merge: the experiment on the merged journal in " + quoted(out) + " refused it (see above)");
  if (status != 0)
    throw std::runtime_error("merge: the experiment on the merged journal exited " + std::to_string(status));
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<MergeArguments>();
  CLI::App* command = parent.add_subcommand("merge", "combine the --out directories of a grid's --shard runs");
  command->add_option("--out", arguments->out, "output directory of the merged grid")->required();
  command->add_option("shards", arguments->shards, "the shards' output directories")->required();
  command->add_flag("--journal-only", arguments->journal_only,
                    "only merge the journals, for another round of shards on a later phase; run nothing");
  command->callback([arguments] { merge(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli::merge_command

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::merge_command::attach)
