#include "rbmix/jobs/result_directory.hpp"

#include "rbmix/jobs/mpi_job_backend.hpp"
#include "rbmix/report/run_record.hpp"

namespace rbmix::experiments {

ResultDirectory::ResultDirectory(std::filesystem::path directory) : directory_(prepare_output_directory(directory)) {}

void ResultDirectory::write_csv(const std::string& name, const Table& table) {
  if (mpi_rank() == 0) table.write_csv(directory_ / name);
  files_.push_back(name);
}

void ResultDirectory::write_svg(const std::string& name, const std::vector<PlotSeries>& series,
                                const PlotOptions& options) {
  if (mpi_rank() == 0) write_svg_plot(directory_ / name, series, options);
  files_.push_back(name);
}

void ResultDirectory::write_png(const std::string& name, const GreyImage& image, const PngText& text) {
  if (mpi_rank() == 0) rbmix::write_png(directory_ / name, image, text);
  files_.push_back(name);
}

void ResultDirectory::write_run_record(nlohmann::json record) {
  if (mpi_rank() == 0) rbmix::write_run_record(directory_, std::move(record), files_);
  files_.push_back("run.json");
}

}  // namespace rbmix::experiments
