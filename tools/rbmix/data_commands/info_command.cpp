// rbmix data info FILE: shape, dtype, fraction of ones, distinct rows and entropy of a data file.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "rbmix/command_registry.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/npy.hpp"

namespace rbmix::cli {
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

void attach_info(CLI::App& data) {
  struct Info {
    std::string file;
    bool json = false;
  };
  auto info = std::make_shared<Info>();
  CLI::App* command =
      data.add_subcommand("info", "Shape, dtype, fraction of ones, distinct rows, entropy of a data file");
  command->add_option("file", info->file, "data file (.npy)")->required();
  command->add_flag("--json", info->json, "print JSON");
  command->callback([info] {
    const NpyArray array = read_npy(info->file);
    const DataSummary summary = summarise(load_binary_matrix(info->file));
    const nlohmann::json report = {
        {"file", info->file},
        {"samples", summary.rows},
        {"features", summary.columns},
        {"dtype", npy_descr(array.dtype)},
        {"ones_fraction", summary.ones_fraction},
        {"distinct_rows", summary.distinct_rows},
        {"empirical_entropy_nats", summary.entropy},
        {"best_average_log_likelihood", -summary.entropy},
    };
    if (info->json) {
      std::cout << report.dump(2) << '\n';
      return;
    }
    std::cout << "file: " << info->file << '\n'
              << "shape: " << summary.rows << " × " << summary.columns << " (" << npy_descr(array.dtype) << ")\n"
              << "fraction of ones: " << summary.ones_fraction << '\n'
              << "distinct rows: " << summary.distinct_rows << '\n'
              << "entropy of the empirical distribution: " << summary.entropy << " nats\n"
              << "best possible average log-likelihood on these rows: " << -summary.entropy << '\n';
  });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("data", rbmix::cli::attach_info)
