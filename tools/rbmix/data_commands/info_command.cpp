// rbmix data info FILE: shape, dtype, fraction of ones, distinct rows and entropy of a data file; or, for a labels
// file (a 1-D array, or any file with --labels), the number of classes and the count of each.
#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/data_file.hpp"
#include "rbmix/io/npy.hpp"

namespace rbmix::cli::info_command {
namespace {

struct DataSummary {
  Eigen::Index rows = 0;
  Eigen::Index columns = 0;
  double ones_fraction = 0.0;
  std::size_t distinct_rows = 0;
  double entropy = 0.0;  // of the empirical distribution of the rows, in nats
};

DataSummary summarise(const BinaryMatrix& data) {
  DataSummary summary{data.rows(), data.cols(), 0.0, 0, 0.0};
  if (data.size() > 0) summary.ones_fraction = data.cast<double>().mean();
  std::unordered_map<std::string, std::size_t> counts;
  for (Eigen::Index row = 0; row < data.rows(); ++row)
    ++counts[std::string(reinterpret_cast<const char*>(data.row(row).data()), static_cast<std::size_t>(data.cols()))];
  summary.distinct_rows = counts.size();
  if (data.rows() > 0) summary.entropy = -best_average_log_likelihood(data);
  return summary;
}

// How a file was stored: "<f8" etc. for .npy, "csv (read as <f8)", "png HxW (read as <f8)".
std::string storage(const DataFile& data) {
  if (data.format == DataFileFormat::npy) return npy_descr(data.array.dtype);
  std::string format = to_string(data.format);
  if (data.image_shape)
    format += " " + std::to_string(data.image_shape->first) + "x" + std::to_string(data.image_shape->second);
  return format + " (read as " + npy_descr(data.array.dtype) + ")";
}

// Classes 0 … largest label, as rbmix train --labels counts them, and how many labels name each.
void report_labels(const std::string& file, const DataFile& data, bool json) {
  const std::vector<int> labels = labels_from_npy(data.array, file);
  require(!labels.empty(), file + ": the labels file holds no labels");
  std::vector<std::size_t> counts(static_cast<std::size_t>(*std::max_element(labels.begin(), labels.end())) + 1, 0);
  for (const int label : labels) ++counts[static_cast<std::size_t>(label)];
  const auto empty = static_cast<std::size_t>(std::count(counts.begin(), counts.end(), std::size_t{0}));
  const nlohmann::json report = {{"file", file},
                                 {"kind", "labels"},
                                 {"dtype", storage(data)},
                                 {"labels", labels.size()},
                                 {"classes", counts.size()},
                                 {"class_counts", counts},
                                 {"empty_classes", empty}};
  if (json) {
    std::cout << report.dump(2) << '\n';
    return;
  }
  std::cout << "file: " << file << " (labels, " << storage(data) << ")\n"
            << "labels: " << labels.size() << '\n'
            << "classes: " << counts.size() << " (0 to " << counts.size() - 1 << ")\n"
            << "labels per class:";
  for (std::size_t label = 0; label < counts.size(); ++label) std::cout << ' ' << label << ':' << counts[label];
  std::cout << '\n';
  if (empty > 0) std::cout << "classes with no label: " << empty << '\n';
}

void attach_info(CLI::App& data) {
  struct Info {
    std::string file;
    bool labels = false;
    bool json = false;
  };
  auto info = std::make_shared<Info>();
  CLI::App* command = data.add_subcommand(
      "info", "Shape, dtype, fraction of ones, distinct rows, entropy of a data file; classes of a labels file");
  command->add_option("file", info->file, "data file (.npy, .csv, .png or a directory of .png) or labels file")
      ->required();
  command->add_flag("--labels", info->labels, "read the file as class labels (automatic for a 1-D .npy array)");
  command->add_flag("--json", info->json, "print JSON");
  command->callback([info] {
    const DataFile data = read_data_file(info->file);
    if (info->labels || data.array.shape.size() == 1) {
      report_labels(info->file, data, info->json);
      return;
    }
    const DataSummary summary = summarise(binary_matrix_from_npy(data.array, info->file));
    nlohmann::json report = {
        {"file", info->file},
        {"kind", "data"},
        {"samples", summary.rows},
        {"features", summary.columns},
        {"dtype", storage(data)},
        {"ones_fraction", summary.ones_fraction},
        {"distinct_rows", summary.distinct_rows},
        {"empirical_entropy_nats", summary.entropy},
        {"best_average_log_likelihood", -summary.entropy},
    };
    if (data.image_shape) report["image_shape"] = {data.image_shape->first, data.image_shape->second};
    if (info->json) {
      std::cout << report.dump(2) << '\n';
      return;
    }
    std::cout << "file: " << info->file << '\n'
              << "shape: " << summary.rows << " × " << summary.columns << " (" << storage(data) << ")\n"
              << "fraction of ones: " << summary.ones_fraction << '\n'
              << "distinct rows: " << summary.distinct_rows << '\n'
              << "entropy of the empirical distribution: " << summary.entropy << " nats\n"
              << "best possible average log-likelihood on these rows: " << -summary.entropy << '\n';
  });
}

}  // namespace
}  // namespace rbmix::cli::info_command

RBMIX_REGISTER_COMMAND("data", rbmix::cli::info_command::attach_info)
