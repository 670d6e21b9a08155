// rbmix experiment slem-sweep: 003 Fig. 3 (ALGORITHMS.md §8, F3). For RBMs with m = n ∈ sizes, weights
// W ~ U[−c, c] and zero biases, the share of RBMs whose flip-the-state sweep T has a smaller SLEM than the Gibbs
// sweep G, against the weight bound c. Each RBM (size, c, index) draws from its own RandomStream, so results do
// not depend on the thread count; RBMs are analysed in parallel with OpenMP.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "rbmix/analysis/slem.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix::cli {
namespace {

struct SlemSweepArguments {
  std::string sizes;
  std::string bounds;
  int count = 0;
  std::uint64_t seed = 1;
  std::string out;
  std::string scale = "paper";
};

std::vector<int> parse_integers(const std::string& text, const std::string& option) {
  std::vector<int> out;
  const auto colon = text.find(':');
  try {
    if (colon != std::string::npos) {
      const int first = std::stoi(text.substr(0, colon)), last = std::stoi(text.substr(colon + 1));
      for (int k = first; k <= last; ++k) out.push_back(k);
    } else {
      std::stringstream stream(text);
      std::string item;
      while (std::getline(stream, item, ',')) out.push_back(std::stoi(item));
    }
  } catch (const std::exception&) {
    throw InputError(option + " '" + text + "': expected integers as A:B or A,B,C");
  }
  require(!out.empty(), option + " '" + text + "': no values");
  return out;
}

struct Job {
  int size, bound, index;
};

// A polyline per size of share against c, as a small standalone SVG.
void write_svg(const std::filesystem::path& file, const std::vector<int>& sizes, const std::vector<int>& bounds,
               const std::vector<std::vector<double>>& shares) {
  const double width = 480, height = 320, margin = 40;
  const auto x_of = [&](std::size_t k) {
    return margin + (width - 2 * margin) * (bounds.size() == 1 ? 0.5 : double(k) / double(bounds.size() - 1));
  };
  const auto y_of = [&](double share) { return height - margin - (height - 2 * margin) * share; };
  const char* colours[] = {"black", "red", "blue", "green", "orange"};
  std::ofstream svg(file);
  svg << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height << "'>\n"
      << "<rect width='100%' height='100%' fill='white'/>\n"
      << "<line x1='" << margin << "' y1='" << y_of(0) << "' x2='" << width - margin << "' y2='" << y_of(0)
      << "' stroke='gray'/><line x1='" << margin << "' y1='" << y_of(0) << "' x2='" << margin << "' y2='" << y_of(1)
      << "' stroke='gray'/>\n<text x='" << width / 2 << "' y='" << height - 8
      << "' text-anchor='middle' font-size='12'>weight bound c</text>\n<text x='4' y='" << margin - 10
      << "' font-size='12'>share with SLEM(T) &lt; SLEM(G)</text>\n";
  for (std::size_t k = 0; k < bounds.size(); ++k)
    svg << "<text x='" << x_of(k) << "' y='" << y_of(0) + 14 << "' text-anchor='middle' font-size='10'>" << bounds[k]
        << "</text>\n";
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    svg << "<polyline fill='none' stroke='" << colours[s % 5] << "' points='";
    for (std::size_t k = 0; k < bounds.size(); ++k) svg << x_of(k) << ',' << y_of(shares[s][k]) << ' ';
    svg << "'/>\n<text x='" << width - margin + 4 << "' y='" << y_of(shares[s].back()) << "' font-size='10' fill='"
        << colours[s % 5] << "'>" << sizes[s] << "x" << sizes[s] << "</text>\n";
  }
  svg << "</svg>\n";
}

void run_slem_sweep(SlemSweepArguments arguments) {
  require(arguments.scale == "paper" || arguments.scale == "smoke", "--scale must be smoke or paper");
  const bool paper = arguments.scale == "paper";
  if (arguments.sizes.empty()) arguments.sizes = paper ? "2,3,4" : "2,3";
  if (arguments.bounds.empty()) arguments.bounds = "1:10";
  if (arguments.count == 0) arguments.count = paper ? 100 : 10;
  require(arguments.count > 0, "--count must be positive");
  const std::vector<int> sizes = parse_integers(arguments.sizes, "--sizes");
  const std::vector<int> bounds = parse_integers(arguments.bounds, "--c");
  for (const int size : sizes)
    require(size >= 1 && 2 * size <= analysis::max_dense_joint_units,
            "--sizes: m = n = " + std::to_string(size) + " is outside 1.." + std::to_string(analysis::max_dense_joint_units / 2));
  for (const int bound : bounds) require(bound >= 0, "--c: weight bounds must be ≥ 0");

  std::vector<Job> jobs;
  for (const int size : sizes)
    for (const int bound : bounds)
      for (int index = 0; index < arguments.count; ++index) jobs.push_back({size, bound, index});
  std::vector<double> gibbs(jobs.size()), flip(jobs.size());
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(dynamic)
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    const Job& job = jobs[k];
    // The stream of RBM (size, c, index): a key no other job shares.
    RandomStream stream(arguments.seed,
                        (static_cast<std::uint64_t>(job.size) << 48) | (static_cast<std::uint64_t>(job.bound) << 32) |
                            static_cast<std::uint64_t>(job.index),
                        StreamDomain::experiment);
    Rbm rbm(job.size, job.size);
    for (Eigen::Index i = 0; i < rbm.weights.rows(); ++i)
      for (Eigen::Index j = 0; j < rbm.weights.cols(); ++j) rbm.weights(i, j) = job.bound * (2.0 * stream.uniform() - 1.0);
    gibbs[k] = analysis::dense_slem(analysis::sweep_transition_matrix(rbm, GibbsRule{})).slem;
    flip[k] = analysis::dense_slem(analysis::sweep_transition_matrix(rbm, FlipTheStateRule{})).slem;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const std::filesystem::path out(arguments.out);
  std::filesystem::create_directories(out);
  std::ofstream per_rbm(out / "slem_per_rbm.csv");
  per_rbm << std::setprecision(17) << "size,c,index,slem_gibbs,slem_flip\n";
  for (std::size_t k = 0; k < jobs.size(); ++k)
    per_rbm << jobs[k].size << ',' << jobs[k].bound << ',' << jobs[k].index << ',' << gibbs[k] << ',' << flip[k] << '\n';
  std::ofstream table(out / "slem_sweep.csv");
  table << "size,c,count,share_flip_better,mean_slem_gibbs,mean_slem_flip\n";
  std::vector<std::vector<double>> shares(sizes.size(), std::vector<double>(bounds.size(), 0.0));
  std::cout << "share of RBMs with SLEM(T) < SLEM(G) (003 Fig. 3), " << arguments.count << " RBMs per cell\n   c";
  for (const int size : sizes) std::cout << "    " << size << "x" << size;
  std::cout << '\n';
  std::size_t k = 0;
  std::vector<std::vector<std::string>> rows(bounds.size());
  for (std::size_t s = 0; s < sizes.size(); ++s)
    for (std::size_t b = 0; b < bounds.size(); ++b) {
      int better = 0;
      double sum_gibbs = 0, sum_flip = 0;
      for (int index = 0; index < arguments.count; ++index, ++k) {
        better += flip[k] < gibbs[k];
        sum_gibbs += gibbs[k];
        sum_flip += flip[k];
      }
      shares[s][b] = double(better) / arguments.count;
      table << sizes[s] << ',' << bounds[b] << ',' << arguments.count << ',' << shares[s][b] << ','
            << sum_gibbs / arguments.count << ',' << sum_flip / arguments.count << '\n';
    }
  for (std::size_t b = 0; b < bounds.size(); ++b) {
    std::cout << std::setw(4) << bounds[b];
    for (std::size_t s = 0; s < sizes.size(); ++s) std::cout << std::setw(8) << std::fixed << std::setprecision(2) << shares[s][b];
    std::cout << '\n';
  }
  write_svg(out / "slem_sweep.svg", sizes, bounds, shares);
  const nlohmann::json configuration{{"experiment", "slem-sweep"},
                                     {"source", "003 Fig. 3"},
                                     {"sizes", sizes},
                                     {"c", bounds},
                                     {"count", arguments.count},
                                     {"seed", arguments.seed},
                                     {"scale", arguments.scale},
                                     {"weights", "U[-c, c], biases 0"},
                                     {"slem", "dense eigenvalues of the joint sweep K = K_h K_v"},
                                     {"rbmix_version", RBMIX_VERSION},
                                     {"seconds", seconds}};
  std::ofstream(out / "config.json") << configuration.dump(2) << '\n';
  std::cout << std::defaultfloat << std::setprecision(4) << "time: " << seconds << " s; wrote " << (out / "slem_sweep.csv").string() << ", "
            << (out / "slem_per_rbm.csv").string() << ", " << (out / "slem_sweep.svg").string() << ", "
            << (out / "config.json").string() << '\n';
}

void attach_slem_sweep(CLI::App& app) {
  auto arguments = std::make_shared<SlemSweepArguments>();
  CLI::App* command = app.add_subcommand("slem-sweep", "003 Fig. 3: share of random RBMs where SLEM(T) < SLEM(G)");
  command->add_option("--sizes", arguments->sizes, "m = n values, e.g. 2,3,4 (default: paper 2,3,4; smoke 2,3)");
  command->add_option("--c", arguments->bounds, "weight bounds, A:B or A,B,C (default 1:10)");
  command->add_option("--count", arguments->count, "RBMs per (size, c) (default: paper 100; smoke 10)");
  command->add_option("--seed", arguments->seed, "random seed")->capture_default_str();
  command->add_option("--out", arguments->out, "output directory")->required();
  command->add_option("--scale", arguments->scale, "smoke|paper")->capture_default_str();
  command->callback([arguments] { run_slem_sweep(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach_slem_sweep)
