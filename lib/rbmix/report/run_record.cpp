#include "rbmix/report/run_record.hpp"

#include <omp.h>

#include <chrono>
#include <ctime>

#include "rbmix/core/error.hpp"
#include "rbmix/io/output_file.hpp"

namespace rbmix {

nlohmann::json make_run_record(const std::string& command, const nlohmann::json& configuration, std::uint64_t seed) {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char started[32];
  std::strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return {{"rbmix_version", RBMIX_VERSION},   {"command", command},    {"seed", seed}, {"configuration", configuration},
          {"threads", omp_get_max_threads()}, {"started_utc", started}};
}

void write_json_file(const std::filesystem::path& path, const nlohmann::json& value) {
  write_output_file(path, value.dump(2) + "\n");
}

void write_run_record(const std::filesystem::path& directory, nlohmann::json record, std::vector<std::string> files) {
  files.push_back("run.json");
  record["files"] = std::move(files);
  write_json_file(directory / "run.json", record);
}

}  // namespace rbmix
