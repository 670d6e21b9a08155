// rbmix experiment merge --out DIR SHARD_DIR...: combines the journals of the shards of one grid (`--shard I/N`
// runs, job_shard.hpp) into DIR and runs the experiment there on the journaled results, which writes the same
// outputs as one run of the whole grid. Refuses shards of different grids (arguments, seed, version), a missing
// or repeated shard, and names the jobs that are missing or failed.
#include <sys/wait.h>
#include <unistd.h>

#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/experiments/job_journal.hpp"
#include "rbmix/experiments/job_shard.hpp"
#include "rbmix/report/run_record.hpp"

namespace rbmix::cli {
namespace {

struct MergeArguments {
  std::string out;
  std::vector<std::string> shards;
};

struct Shard {
  std::filesystem::path directory;
  nlohmann::json record;
  experiments::JobShard share;
};

std::string quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

Shard read_shard(const std::filesystem::path& directory) {
  Shard shard{directory, experiments::read_grid_record(directory), {}};
  require(!shard.record.is_null(),
          "merge: " + quoted(directory) + " holds no grid journal (journal/grid.json): not a --shard run's --out");
  try {
    shard.share = experiments::parse_shard(shard.record.at("shard").get<std::string>());
    require(shard.record.at("jobs").size() >= 1 && shard.record.at("identity").contains("arguments"), "");
  } catch (const std::exception&) {
    throw InputError("merge: journal file " + quoted(experiments::journal_directory(directory) / "grid.json") +
                     " is damaged");
  }
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
  require(first.record.at("jobs").at(0) == shard.record.at("jobs").at(0),
          "merge: shard " + quoted(shard.directory) + " has another number of jobs than " + quoted(first.directory));
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

  const auto jobs = shards.front().record.at("jobs").at(0).get<std::size_t>();
  std::map<std::size_t, experiments::JobOutcome> outcomes;
  std::string missing, failed;
  for (const Shard& shard : shards) {
    const auto journaled = experiments::JobJournal(shard.directory, 0).read();
    for (std::size_t job = 0; job < jobs; ++job) {
      if (!shard.share.holds(job)) continue;
      const auto entry = journaled.find(job);
      const std::string where = std::to_string(job) + " (shard " + shard.share.to_string() + ")";
      if (entry == journaled.end())
        missing += (missing.empty() ? "" : ", ") + where;
      else if (!entry->second.succeeded)
        failed += (failed.empty() ? "" : "; ") + where + ": " + entry->second.text;
      else
        outcomes.emplace(job, entry->second);
    }
  }
  require(missing.empty(), "merge: jobs missing: " + missing + "; finish those shards with --resume");
  require(failed.empty(), "merge: jobs failed: " + failed + "; rerun those shards with --resume");

  const std::filesystem::path out = prepare_output_directory(arguments.out);
  std::filesystem::remove_all(experiments::journal_directory(out));
  nlohmann::json record = shards.front().record;
  record["shard"] = experiments::JobShard{}.to_string();
  record["jobs"] = nlohmann::json::array({jobs});
  experiments::write_grid_record(out, record);
  const experiments::JobJournal journal(out, 0);
  for (const auto& [job, outcome] : outcomes) journal.record(job, outcome);

  // The experiment itself, on the merged journal: every job is found there, none runs again.
  std::vector<std::string> command{"experiment"};
  for (const auto& token : record.at("identity").at("arguments")) command.push_back(token.get<std::string>());
  command.insert(command.end(), {"--seed", record.at("identity").at("seed").dump(), "--out", out.string(), "--resume"});
  const int status = run_self(command);
  if (status != 0)
    throw std::runtime_error("merge: the experiment on the merged journal exited " + std::to_string(status));
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<MergeArguments>();
  CLI::App* command = parent.add_subcommand("merge", "combine the --out directories of a grid's --shard runs");
  command->add_option("--out", arguments->out, "output directory of the merged grid")->required();
  command->add_option("shards", arguments->shards, "the shards' output directories")->required();
  command->callback([arguments] { merge(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach)
