#include "rbmix/experiments/result_directory.hpp"

#include "rbmix/report/run_record.hpp"

namespace rbmix::experiments {

ResultDirectory::ResultDirectory(std::filesystem::path directory) : directory_(prepare_output_directory(directory)) {}

void ResultDirectory::write_csv(const std::string& name, const Table& table) {
  table.write_csv(directory_ / name);
  files_.push_back(name);
}

void ResultDirectory::write_svg(const std::string& name, const std::vector<PlotSeries>& series,
                                const PlotOptions& options) {
  write_svg_plot(directory_ / name, series, options);
  files_.push_back(name);
}

void ResultDirectory::write_run_record(nlohmann::json record) {
  files_.push_back("run.json");
  record["files"] = files_;
  write_json_file(directory_ / "run.json", record);
}

}  // namespace rbmix::experiments
