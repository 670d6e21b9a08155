// rbmix experiment slem-sweep: 003 Fig. 3 (see slem_sweep.hpp). Writes the share table and every RBM's SLEMs as
// CSV, a plot of the shares against c as SVG, and the run record; prints the table.
#include "rbmix/experiments/slem_sweep.hpp"

#include <chrono>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>

#include "rbmix/analysis/slem.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/report/run_record.hpp"
#include "rbmix/report/svg_plot.hpp"

namespace rbmix::experiments {

void SlemSweepOptions::validate() const {
  require(!sizes.empty(), "--sizes: give at least one size");
  for (const int size : sizes)
    require(size >= 1 && 2 * size <= analysis::max_dense_joint_units,
            "--sizes: m = n = " + std::to_string(size) + " is outside 1.." +
                std::to_string(analysis::max_dense_joint_units / 2));
  require(!weight_bounds.empty(), "--c: give at least one weight bound");
  for (const int bound : weight_bounds) require(bound >= 0, "--c: weight bounds must be ≥ 0");
  require(rbms_per_setting > 0, "--count must be positive");
}

SlemSweepResult run_slem_sweep(const SlemSweepOptions& options) {
  options.validate();
  SlemSweepResult result;
  for (const int size : options.sizes)
    for (const int bound : options.weight_bounds)
      for (int index = 0; index < options.rbms_per_setting; ++index) result.rbms.push_back({size, bound, index, 0, 0});
  const auto start = std::chrono::steady_clock::now();
  const auto count = static_cast<std::ptrdiff_t>(result.rbms.size());
#pragma omp parallel for schedule(dynamic)
  for (std::ptrdiff_t k = 0; k < count; ++k) {
    SlemSweepRbm& job = result.rbms[static_cast<std::size_t>(k)];
    // The stream of RBM (size, c, index): a key no other RBM shares.
    RandomStream stream(options.seed,
                        (static_cast<std::uint64_t>(job.size) << 48) |
                            (static_cast<std::uint64_t>(job.weight_bound) << 32) |
                            static_cast<std::uint64_t>(job.index),
                        StreamDomain::experiment);
    Rbm rbm(job.size, job.size);
    for (Eigen::Index i = 0; i < rbm.weights.rows(); ++i)
      for (Eigen::Index j = 0; j < rbm.weights.cols(); ++j)
        rbm.weights(i, j) = job.weight_bound * (2.0 * stream.uniform() - 1.0);
    job.slem_gibbs = analysis::dense_slem(analysis::sweep_transition_matrix(rbm, GibbsRule{})).slem;
    job.slem_flip = analysis::dense_slem(analysis::sweep_transition_matrix(rbm, FlipTheStateRule{})).slem;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (std::size_t k = 0; k < result.rbms.size(); k += static_cast<std::size_t>(options.rbms_per_setting)) {
    SlemSweepShare share{result.rbms[k].size, result.rbms[k].weight_bound, options.rbms_per_setting, 0, 0.0, 0.0};
    for (int index = 0; index < options.rbms_per_setting; ++index) {
      const SlemSweepRbm& rbm = result.rbms[k + static_cast<std::size_t>(index)];
      share.flip_better += rbm.slem_flip < rbm.slem_gibbs;
      share.mean_slem_gibbs += rbm.slem_gibbs / options.rbms_per_setting;
      share.mean_slem_flip += rbm.slem_flip / options.rbms_per_setting;
    }
    result.shares.push_back(share);
  }
  return result;
}

Table slem_sweep_share_table(const SlemSweepResult& result) {
  Table table({"size", "c", "rbms", "share_flip_better", "mean_slem_gibbs", "mean_slem_flip"});
  for (const auto& share : result.shares)
    table.add_row({static_cast<long long>(share.size), static_cast<long long>(share.weight_bound),
                   static_cast<long long>(share.rbms), share.share(), share.mean_slem_gibbs, share.mean_slem_flip});
  return table;
}

Table slem_sweep_rbm_table(const SlemSweepResult& result) {
  Table table({"size", "c", "index", "slem_gibbs", "slem_flip"});
  for (const auto& rbm : result.rbms)
    table.add_row({static_cast<long long>(rbm.size), static_cast<long long>(rbm.weight_bound),
                   static_cast<long long>(rbm.index), rbm.slem_gibbs, rbm.slem_flip});
  return table;
}

}  // namespace rbmix::experiments

namespace rbmix::cli {
namespace {

struct SlemSweepArguments {
  std::string sizes;
  std::string bounds = "1:10";
  int count = 0;
  std::uint64_t seed = 1;
  std::string out;
  std::string scale = "paper";
};

std::vector<int> parse_integers(const std::string& text, const std::string& option) {
  std::vector<int> out;
  bool empty_range = false;
  const auto colon = text.find(':');
  try {
    if (colon != std::string::npos) {
      const int first = std::stoi(text.substr(0, colon)), last = std::stoi(text.substr(colon + 1));
      if (first > last) empty_range = true;
      for (int k = first; k <= last; ++k) out.push_back(k);
    } else {
      std::stringstream stream(text);
      std::string item;
      while (std::getline(stream, item, ',')) out.push_back(std::stoi(item));
    }
  } catch (const std::exception&) {
    throw InputError(option + " '" + text + "': expected integers as A:B or A,B,C");
  }
  require(!empty_range, option + " '" + text + "': the range A:B needs A <= B");
  require(!out.empty(), option + " '" + text + "': no values");
  return out;
}

void run_slem_sweep_command(const SlemSweepArguments& arguments) {
  require(arguments.scale == "paper" || arguments.scale == "smoke", "--scale must be smoke or paper");
  const bool paper = arguments.scale == "paper";
  experiments::SlemSweepOptions options;
  options.sizes = parse_integers(arguments.sizes.empty() ? (paper ? "2,3,4" : "2,3") : arguments.sizes, "--sizes");
  options.weight_bounds = parse_integers(arguments.bounds, "--c");
  options.rbms_per_setting = arguments.count != 0 ? arguments.count : (paper ? 100 : 10);
  options.seed = arguments.seed;
  options.validate();
  const auto out = prepare_output_directory(arguments.out);
  const nlohmann::json configuration{{"source", "003 Fig. 3"},
                                     {"sizes", options.sizes},
                                     {"c", options.weight_bounds},
                                     {"rbms_per_setting", options.rbms_per_setting},
                                     {"scale", arguments.scale},
                                     {"weights", "U[-c, c], biases 0"},
                                     {"slem", "dense eigenvalues of the joint sweep K = K_h K_v"}};
  nlohmann::json record = make_run_record("experiment slem-sweep", configuration, options.seed);

  const experiments::SlemSweepResult result = experiments::run_slem_sweep(options);
  const Table shares = experiments::slem_sweep_share_table(result);
  shares.write_csv(out / "slem_sweep.csv");
  experiments::slem_sweep_rbm_table(result).write_csv(out / "slem_per_rbm.csv");
  std::vector<PlotSeries> series;
  for (const int size : options.sizes) {
    PlotSeries line;
    line.label = std::to_string(size) + "x" + std::to_string(size);
    for (const auto& share : result.shares)
      if (share.size == size) {
        line.x.push_back(share.weight_bound);
        line.y.push_back(share.share());
      }
    series.push_back(line);
  }
  PlotOptions plot;
  plot.title = "Share of RBMs with SLEM(T) < SLEM(G) (003 Fig. 3)";
  plot.x_label = "weight bound c";
  plot.y_label = "share";
  plot.y_min = 0.0;
  plot.y_max = 1.0;
  write_svg_plot(out / "slem_sweep.svg", series, plot);
  record["seconds"] = result.seconds;
  write_json_file(out / "run.json", record);

  std::cout << "share of RBMs with SLEM(T) < SLEM(G) (003 Fig. 3), " << options.rbms_per_setting
            << " RBMs per setting\n";
  shares.print(std::cout, 4);
  std::cout << "time: " << result.seconds << " s; wrote slem_sweep.csv, slem_per_rbm.csv, slem_sweep.svg, run.json in "
            << out.string() << '\n';
}

void attach_slem_sweep(CLI::App& app) {
  auto arguments = std::make_shared<SlemSweepArguments>();
  CLI::App* command = app.add_subcommand("slem-sweep", "003 Fig. 3: share of random RBMs where SLEM(T) < SLEM(G)");
  command->add_option("--sizes", arguments->sizes, "m = n values, e.g. 2,3,4 (default: paper 2,3,4; smoke 2,3)");
  command->add_option("--c", arguments->bounds, "weight bounds, A:B or A,B,C")->capture_default_str();
  command->add_option("--count", arguments->count, "RBMs per (size, c) (default: paper 100; smoke 10)")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  command->add_option("--seed", arguments->seed, "random seed")->capture_default_str();
  command->add_option("--out", arguments->out, "output directory")->required();
  command->add_option("--scale", arguments->scale, "smoke|paper")->capture_default_str();
  command->callback([arguments] { run_slem_sweep_command(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach_slem_sweep)
