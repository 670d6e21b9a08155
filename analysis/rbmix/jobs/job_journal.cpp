#include "rbmix/jobs/job_journal.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <system_error>

#include "rbmix/core/error.hpp"
#include "rbmix/io/crc32.hpp"
#include "rbmix/io/output_file.hpp"
#include "rbmix/jobs/job_shard.hpp"
#include "rbmix/report/run_record.hpp"

namespace rbmix::experiments {
namespace {

// 2: the entry names its grid, phase and job, and the checksum covers them (1: the result text alone).
constexpr const char* job_format = "rbmix-grid-job/2";

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  require(static_cast<bool>(in), "journal file '" + path.string() + "' cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception&) {
    throw InputError("journal file '" + path.string() + "' is damaged: not valid JSON");
  }
}

bool is_grid_identity(const nlohmann::json& identity) {
  if (!identity.is_object() || !identity.contains("seed") || !identity.contains("arguments")) return false;
  const nlohmann::json& arguments = identity.at("arguments");
  return arguments.is_array() &&
         std::all_of(arguments.begin(), arguments.end(), [](const nlohmann::json& token) { return token.is_string(); });
}

}  // namespace

std::string differing_keys(const nlohmann::json& ours, const nlohmann::json& theirs) {
  if (!ours.is_object() || !theirs.is_object()) return "identity";
  std::string keys;
  for (const auto& [key, value] : ours.items())
    if (!theirs.contains(key) || theirs.at(key) != value) keys += (keys.empty() ? "" : ", ") + key;
  for (const auto& [key, value] : theirs.items())
    if (!ours.contains(key)) keys += (keys.empty() ? "" : ", ") + key;
  return keys;
}

std::filesystem::path journal_directory(const std::filesystem::path& directory) { return directory / "journal"; }

std::string journal_checksum(const std::string& text) {
  char digits[9];
  std::snprintf(digits, sizeof digits, "%08x", static_cast<unsigned>(crc32_of(text)));
  return digits;
}

JobJournal::JobJournal(std::filesystem::path directory, std::size_t phase, nlohmann::json grid)
    : phase_directory_(journal_directory(directory) / ("phase-" + std::to_string(phase))),
      phase_(phase),
      grid_(std::move(grid)) {}

std::filesystem::path JobJournal::job_file(std::size_t job) const {
  char name[32];
  std::snprintf(name, sizeof name, "job-%06zu.json", job);
  return phase_directory_ / name;
}

void JobJournal::record(std::size_t job, const JobOutcome& outcome) const {
  prepare_output_directory(phase_directory_);
  nlohmann::json entry = {{"format", job_format},
                          {"grid", grid_},
                          {"phase", phase_},
                          {"job", job},
                          {"succeeded", outcome.succeeded},
                          {outcome.succeeded ? "result" : "error", outcome.text}};
  // Over everything the entry says, so that its grid, phase and job are vouched for as much as its result.
  entry["checksum"] = journal_checksum(entry.dump());
  write_output_file(job_file(job), entry.dump() + "\n");
}

std::map<std::size_t, JobOutcome> JobJournal::read() const {
  std::map<std::size_t, JobOutcome> jobs;
  if (!std::filesystem::is_directory(phase_directory_)) return jobs;
  for (const auto& file : std::filesystem::directory_iterator(phase_directory_)) {
    const std::string name = file.path().filename().string();
    // Leftovers of a write that was killed (job-N.json.partial) are not entries.
    if (name.size() <= 9 || name.rfind("job-", 0) != 0 || name.substr(name.size() - 5) != ".json") continue;
    const std::string digits = name.substr(4, name.size() - 9);
    if (digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto damaged = [&](const std::string& why) {
      return InputError("journal file '" + file.path().string() + "' is damaged: " + why +
                        "; delete it to run that job again");
    };
    std::size_t job = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), job);
    if (error != std::errc{} || end != digits.data() + digits.size()) throw damaged("its name is no job index");
    nlohmann::json entry = read_json(file.path());
    try {
      if (!entry.is_object() || entry.value("format", "") != job_format) throw damaged("not a job entry");
      const std::string checksum = entry.at("checksum").get<std::string>();
      entry.erase("checksum");
      if (checksum != journal_checksum(entry.dump())) throw damaged("checksum mismatch");
      if (entry.at("grid") != grid_)
        throw damaged("it belongs to another grid (" + differing_keys(grid_, entry.at("grid")) + " differ)");
      const auto index = [&](const char* key) {
        const nlohmann::json& value = entry.at(key);
        if (!value.is_number_unsigned()) throw damaged(std::string("its ") + key + " is no index");
        return value.get<std::size_t>();
      };
      if (const std::size_t phase = index("phase"); phase != phase_)
        throw damaged("it belongs to phase " + std::to_string(phase));
      if (const std::size_t held = index("job"); held != job) throw damaged("it holds job " + std::to_string(held));
      JobOutcome outcome{entry.at("succeeded").get<bool>(), {}};
      outcome.text = entry.at(outcome.succeeded ? "result" : "error").get<std::string>();
      jobs.emplace(job, std::move(outcome));
    } catch (const nlohmann::json::exception&) {
      throw damaged("a field is missing or of the wrong type");
    }
  }
  return jobs;
}

nlohmann::json read_grid_record(const std::filesystem::path& directory) {
  const std::filesystem::path path = journal_directory(directory) / "grid.json";
  if (!std::filesystem::exists(path)) return nullptr;
  nlohmann::json record = read_json(path);
  const auto damaged = [&](const std::string& why) {
    return InputError("journal file '" + path.string() + "' is damaged: " + why);
  };
  if (!record.is_object()) throw damaged("not an object");
  if (!record.contains("identity") || !is_grid_identity(record.at("identity")))
    throw damaged("its identity is not an object of arguments (strings) and a seed");
  try {
    parse_shard(record.at("shard").get<std::string>());
  } catch (const std::exception&) {
    throw damaged("its shard is not I/N");
  }
  const auto jobs = record.find("jobs");
  if (jobs == record.end() || !jobs->is_array() ||
      !std::all_of(jobs->begin(), jobs->end(), [](const nlohmann::json& count) { return count.is_number_unsigned(); }))
    throw damaged("its jobs are not a list of counts per phase");
  return record;
}

void write_grid_record(const std::filesystem::path& directory, const nlohmann::json& record) {
  prepare_output_directory(journal_directory(directory));
  write_json_file(journal_directory(directory) / "grid.json", record);
}

}  // namespace rbmix::experiments
