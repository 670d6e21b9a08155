// rbmix isl: the indirect sampling likelihood of 001 §5 (docs/algorithms/estimation.md §4) of a sample set: the mean
// log density of the test rows under a Parzen estimator on the first N samples, for log-spaced N (or --counts), with
// the Parzen β chosen for each N on the validation rows. Passing the training set as --samples gives the reference
// line. With --out DIR: isl.csv and run.json.
#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/estimation/isl.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/output_directory_lock.hpp"
#include "rbmix/report/run_record.hpp"
#include "rbmix/report/table.hpp"

namespace rbmix::cli::isl_command {
namespace {

struct IslArguments {
  std::string samples;
  std::string validation;
  std::string test;
  std::vector<Eigen::Index> counts;
  std::string out;
  bool json = false;
};

void run_isl(const IslArguments& arguments) {
  const BinaryMatrix samples = load_binary_matrix(arguments.samples);
  const BinaryMatrix validation = load_binary_matrix(arguments.validation);
  const BinaryMatrix test = load_binary_matrix(arguments.test);
  const std::vector<Eigen::Index> counts =
      arguments.counts.empty() ? log_spaced_counts(std::max<Eigen::Index>(samples.rows(), 1)) : arguments.counts;
  const IslInputNames names{"--samples " + arguments.samples, "--valid " + arguments.validation,
                            "--test " + arguments.test, "--counts"};
  validate_isl_inputs(samples, validation, test, counts, names);  // before the output directory is made
  const std::filesystem::path out = arguments.out;
  std::optional<OutputDirectoryLock> lock;
  if (!out.empty()) lock.emplace(out);
  const std::vector<IslPoint> curve = isl_curve(samples, validation, test, counts, names);
  Table table({"samples", "beta", "validation", "isl"});
  nlohmann::json points = nlohmann::json::array();
  std::string on_bound;  // "N = 1000 (upper)", ...: where β sits on an end of its search range
  for (const IslPoint& point : curve) {
    table.add_row({static_cast<long long>(point.samples), point.beta, point.validation, point.test});
    const BandwidthBound bound = bandwidth_bound(point.beta);
    points.push_back({{"samples", point.samples},
                      {"beta", point.beta},
                      {"beta_bound", to_string(bound)},
                      {"validation", point.validation},
                      {"isl", point.test}});
    if (bound != BandwidthBound::none)
      on_bound +=
          (on_bound.empty() ? "" : ", ") + ("N = " + std::to_string(point.samples) + " (" + to_string(bound) + ")");
  }
  // β clamped at an end of its range is reported, not silently used: the optimum may lie beyond it.
  const std::string bound_note =
      on_bound.empty() ? ""
                       : "β sits on an end of its search range (½ + 2.5·10⁻⁵ … 1 − 10⁻¹³) at " + on_bound +
                             ": the optimum may lie beyond it (upper: do the validation rows repeat the samples?)";
  const nlohmann::json configuration = {{"samples", arguments.samples},
                                        {"valid", arguments.validation},
                                        {"test", arguments.test},
                                        {"counts", counts},
                                        {"beta", "chosen per N on the validation rows (logit grid + golden section)"}};
  nlohmann::json record = make_run_record("isl", configuration, 0);
  record["curve"] = points;
  if (!bound_note.empty()) record["warnings"] = {bound_note};
  if (!arguments.out.empty()) {
    table.write_csv(out / "isl.csv");
    write_run_record(out, record, {"isl.csv"});
  }
  if (arguments.json) {
    std::cout << record.dump(2) << '\n';
  } else {
    std::cout << "ISL of " << arguments.samples << " on " << test.rows() << " test rows (β chosen on "
              << validation.rows() << " validation rows)\n";
    table.print(std::cout);
    if (!bound_note.empty()) std::cout << "warning: " << bound_note << '\n';
    if (!arguments.out.empty()) std::cout << "wrote " << arguments.out << "/isl.csv, run.json\n";
  }
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<IslArguments>();
  CLI::App* command =
      parent.add_subcommand("isl", "Indirect sampling likelihood (Parzen on samples) against the sample count");
  command
      ->add_option("--samples", arguments->samples, "binary samples (.npy, .csv or .png), in the order they were drawn")
      ->required();
  command->add_option("--valid", arguments->validation, "binary validation rows (.npy, .csv or .png) that choose β")
      ->required();
  command->add_option("--test", arguments->test, "binary test rows (.npy, .csv or .png)")->required();
  command->add_option("--counts", arguments->counts, "sample counts N, comma-separated (default 1,2,5,10,…,all)")
      ->delimiter(',');
  command->add_option("--out", arguments->out, "output directory for isl.csv and run.json");
  command->add_flag("--json", arguments->json, "print the results as JSON");
  command->callback([arguments] { run_isl(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli::isl_command

RBMIX_REGISTER_COMMAND("", rbmix::cli::isl_command::attach)
