#pragma once
// ResultDirectory: where an experiment writes its results: CSV tables, SVG plots, PNG pictures and, last, run.json, the
// run record (command, configuration, seed, version, threads) with the list of the files written beside it. Under
// mpirun only rank 0 writes (the other ranks compute the same results: job_grid.hpp).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rbmix/report/png_image.hpp"
#include "rbmix/report/svg_plot.hpp"
#include "rbmix/report/table.hpp"

namespace rbmix::experiments {

class ResultDirectory {
 public:
  // Creates `directory` (and its parents) if needed; throws InputError if it cannot.
  explicit ResultDirectory(std::filesystem::path directory);

  const std::filesystem::path& path() const { return directory_; }
  // The file names written so far, in order.
  const std::vector<std::string>& files() const { return files_; }

  void write_csv(const std::string& name, const Table& table);
  void write_svg(const std::string& name, const std::vector<PlotSeries>& series, const PlotOptions& options);
  void write_png(const std::string& name, const GreyImage& image, const PngText& text = {});
  // Writes run.json: `record` with "files" listing every file written before it and run.json itself.
  void write_run_record(nlohmann::json record);

 private:
  std::filesystem::path directory_;
  std::vector<std::string> files_;
};

}  // namespace rbmix::experiments
