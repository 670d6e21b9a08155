#include "rbmix/experiments/job_journal.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "rbmix/core/error.hpp"
#include "rbmix/io/output_file.hpp"
#include "rbmix/report/run_record.hpp"

namespace rbmix::experiments {
namespace {

constexpr const char* job_format = "rbmix-grid-job/1";

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

}  // namespace

std::filesystem::path journal_directory(const std::filesystem::path& directory) { return directory / "journal"; }

std::string journal_checksum(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char byte : text) hash = (hash ^ byte) * 1099511628211ull;
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(hash));
  return digits;
}

JobJournal::JobJournal(std::filesystem::path directory, std::size_t phase)
    : phase_directory_(journal_directory(directory) / ("phase-" + std::to_string(phase))) {}

std::filesystem::path JobJournal::job_file(std::size_t job) const {
  char name[32];
  std::snprintf(name, sizeof name, "job-%06zu.json", job);
  return phase_directory_ / name;
}

void JobJournal::record(std::size_t job, const JobOutcome& outcome) const {
  prepare_output_directory(phase_directory_);
  const nlohmann::json entry = {{"format", job_format},
                                {"job", job},
                                {"succeeded", outcome.succeeded},
                                {outcome.succeeded ? "result" : "error", outcome.text},
                                {"checksum", journal_checksum(outcome.text)}};
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
    const std::size_t job = std::stoull(digits);
    const nlohmann::json entry = read_json(file.path());
    const auto damaged = [&](const std::string& why) {
      return InputError("journal file '" + file.path().string() + "' is damaged: " + why +
                        "; delete it to run that job again");
    };
    try {
      if (entry.value("format", "") != job_format) throw damaged("not a job entry");
      if (entry.at("job").get<std::size_t>() != job) throw damaged("it holds another job");
      JobOutcome outcome{entry.at("succeeded").get<bool>(), {}};
      outcome.text = entry.at(outcome.succeeded ? "result" : "error").get<std::string>();
      if (entry.at("checksum").get<std::string>() != journal_checksum(outcome.text)) throw damaged("checksum mismatch");
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
  return read_json(path);
}

void write_grid_record(const std::filesystem::path& directory, const nlohmann::json& record) {
  prepare_output_directory(journal_directory(directory));
  write_json_file(journal_directory(directory) / "grid.json", record);
}

}  // namespace rbmix::experiments
