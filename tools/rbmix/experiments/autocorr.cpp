// rbmix experiment autocorr: 003 Table 2 and Fig. 4 (ALGORITHMS.md §8, T2). RBMs trained with 20-PT10 (Gibbs
// sampling in the training chains) are sampled by one chain with the Gibbs operator G and one with flip-the-state
// T; the integrated autocorrelation time of the energy is estimated by the AR model (003's method) and by the two
// other estimators of ALGORITHMS.md §6; gain = 1 − mean τ_T / mean τ_G. Settings: Bars & Stripes 4×4 and
// Artificial Modes (p_mut 0.01 and 0.1) with 16 hidden units; MNIST with 10 hidden units and with 500 hidden
// units (2000 updates) when --mnist names its directory. Every (setting, trial) is one job with its own seeds
// (seed + 1000·setting + trial), run in parallel with OpenMP, so the numbers do not depend on the thread count.
// Writes autocorr_trials.csv, autocorr.csv (Table 2), autocorrelation_<setting>.csv/.svg and autocorr.json.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>

#include "rbmix/analysis/autocorrelation.hpp"
#include "rbmix/analysis/integrated_autocorrelation_time.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/data/mnist.hpp"
#include "rbmix/mixing_command.hpp"
#include "rbmix/report/run_record.hpp"
#include "rbmix/report/svg_plot.hpp"
#include "rbmix/report/table.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix::cli {
namespace {

struct AutocorrArguments {
  std::string scale = "smoke";
  std::uint64_t seed = 1;
  std::string out;
  std::string mnist;
  // 0: the scale's default (the options accept only positive values).
  int trials = 0;
  std::int64_t updates = 0;
  Eigen::Index steps = 0;
  double learning_rate = 0.05;
  std::vector<std::string> only;  // setting names to run; empty: all
};

struct Setting {
  std::string name;
  MatrixD data;
  Eigen::Index hidden;
  int batch;  // 0: full batch
  std::int64_t updates;
  int trials;
  Eigen::Index steps;
  std::uint64_t number = 0;  // position in the full list, so --only keeps each setting's seeds
};

// Lags of the averaged autocorrelation function that are written and plotted.
constexpr Eigen::Index reported_lags = 100;

struct OperatorResult {
  std::vector<analysis::IntegratedTimeEstimate> estimates;
  VectorD autocorrelation;  // lags 0..reported_lags
};

struct JobResult {
  std::size_t setting = 0;
  int trial = 0;
  double train_seconds = 0.0;
  OperatorResult gibbs, flip;
  std::string error;
};

const std::vector<UnitRule>& compared_rules() {
  static const std::vector<UnitRule> rules{GibbsRule{}, FlipTheStateRule{}};
  return rules;
}

std::vector<Setting> settings(const AutocorrArguments& arguments, bool paper) {
  const int trials = arguments.trials > 0 ? arguments.trials : (paper ? 25 : 2);
  const std::int64_t updates = arguments.updates > 0 ? arguments.updates : (paper ? 20000 : 500);
  const Eigen::Index steps = arguments.steps > 0 ? arguments.steps : (paper ? 1000000 : 20000);
  std::vector<Setting> out;
  out.push_back({"bas4x4", to_real(bars_and_stripes(4)), 16, 0, updates, trials, steps});
  for (const double mutation : {0.01, 0.1})
    out.push_back({mutation == 0.01 ? "modes_p0.01" : "modes_p0.1",
                   to_real(artificial_modes(mutation, 1000, arguments.seed).samples), 16, 100, updates, trials, steps});
  if (!arguments.mnist.empty()) {
    const LabelledImages images = load_mnist(arguments.mnist, MnistPart::train);
    const MatrixD digits =
        to_real(stochastic_binarize(images.images.pixels, arguments.seed)).topRows(paper ? 50000 : 10000);
    out.push_back({"mnist_10h", digits, 10, 100, updates, trials, steps});
    // 003 §4.3: 24 RBMs with 500 hidden units, 2000 updates; each sweep costs 50× more, so smoke runs one short one.
    out.push_back({"mnist_500h", digits, 500, 100, arguments.updates > 0 ? updates : (paper ? 2000 : 20),
                   arguments.trials > 0 ? trials : (paper ? 24 : 1),
                   arguments.steps > 0 ? steps : (paper ? steps : 2000)});
  }
  for (std::size_t s = 0; s < out.size(); ++s) out[s].number = s;
  if (arguments.only.empty()) return out;
  std::vector<Setting> chosen;
  for (const std::string& name : arguments.only) {
    const auto found = std::find_if(out.begin(), out.end(), [&](const Setting& s) { return s.name == name; });
    require(found != out.end(), "--only: no setting '" + name + "' (MNIST settings need --mnist)");
    chosen.push_back(*found);
  }
  return chosen;
}

JobResult run_job(const Setting& setting, std::size_t setting_index, int trial, const AutocorrArguments& arguments) {
  JobResult result;
  result.setting = setting_index;
  result.trial = trial;
  const std::uint64_t seed = arguments.seed + 1000 * setting.number + static_cast<std::uint64_t>(trial);
  TrainingOptions options;
  options.negative_phase = NegativePhaseKind::parallel_tempering;
  options.replicas = 20;
  options.sampling_steps = 10;
  options.learning_rate = arguments.learning_rate;
  options.batch_size = setting.batch;
  options.updates = setting.updates;
  options.evaluation_interval = 0;
  options.seed = seed;
  const auto start = std::chrono::steady_clock::now();
  Trainer trainer(options, setting.data, MatrixD(0, setting.data.cols()), setting.hidden);
  trainer.run();
  result.train_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const Rbm rbm = trainer.model();
  for (const UnitRule& rule : compared_rules()) {
    const MatrixD traces = sample_energy_traces(rbm, {rule, setting.steps, 1, 1000, seed, false});
    const analysis::TraceAutocovariance covariance = analysis::trace_autocovariance(traces);
    OperatorResult& out = std::holds_alternative<GibbsRule>(rule) ? result.gibbs : result.flip;
    out.estimates = analysis::integrated_autocorrelation_times(covariance);
    const Eigen::Index lags = std::min(reported_lags, setting.steps - 1);
    out.autocorrelation =
        covariance.mean_autocovariance[0] > 0.0
            ? VectorD(covariance.mean_autocovariance.head(lags + 1) / covariance.mean_autocovariance[0])
            : VectorD::Constant(lags + 1, std::nan(""));
  }
  return result;
}

void run_autocorr(const AutocorrArguments& arguments) {
  require(arguments.scale == "paper" || arguments.scale == "smoke", "--scale must be smoke or paper");
  require(arguments.learning_rate > 0.0, "--lr must be positive");
  const bool paper = arguments.scale == "paper";
  const auto out = prepare_output_directory(arguments.out);
  const std::vector<Setting> all = settings(arguments, paper);

  std::vector<std::pair<std::size_t, int>> jobs;
  for (std::size_t s = 0; s < all.size(); ++s)
    for (int trial = 0; trial < all[s].trials; ++trial) jobs.emplace_back(s, trial);
  std::vector<JobResult> results(jobs.size());
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(dynamic)
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    try {
      results[j] = run_job(all[jobs[j].first], jobs[j].first, jobs[j].second, arguments);
    } catch (const std::exception& error) {
      results[j].error = error.what();
    }
  }
  for (const JobResult& result : results) require(result.error.empty(), "autocorr: " + result.error);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  Table trials({"setting", "trial", "operator", "estimator", "tau", "lower", "upper", "trusted", "train_seconds"});
  for (const JobResult& result : results)
    for (const auto* operator_result : {&result.gibbs, &result.flip})
      for (const auto& estimate : operator_result->estimates)
        trials.add_row({all[result.setting].name, static_cast<long long>(result.trial),
                        std::string(operator_result == &result.gibbs ? "G" : "T"), estimate.method, estimate.time,
                        estimate.lower, estimate.upper, static_cast<long long>(estimate.trusted ? 1 : 0),
                        result.train_seconds});
  trials.write_csv(out / "autocorr_trials.csv");

  // Table 2: mean τ over the trials of each setting, per estimator, and the gain 1 − τ_T/τ_G.
  Table summary({"setting", "hidden", "trials", "steps", "estimator", "tau_G", "tau_T", "gain_percent", "untrusted_G",
                 "untrusted_T"});
  for (std::size_t s = 0; s < all.size(); ++s) {
    for (std::size_t e = 0; e < 3; ++e) {
      double sum_gibbs = 0.0, sum_flip = 0.0;
      long long untrusted_gibbs = 0, untrusted_flip = 0, count = 0;
      std::string method;
      for (const JobResult& result : results) {
        if (result.setting != s) continue;
        method = result.gibbs.estimates[e].method;
        sum_gibbs += result.gibbs.estimates[e].time;
        sum_flip += result.flip.estimates[e].time;
        untrusted_gibbs += result.gibbs.estimates[e].trusted ? 0 : 1;
        untrusted_flip += result.flip.estimates[e].trusted ? 0 : 1;
        ++count;
      }
      summary.add_row({all[s].name, static_cast<long long>(all[s].hidden), count, static_cast<long long>(all[s].steps),
                       method, sum_gibbs / static_cast<double>(count), sum_flip / static_cast<double>(count),
                       100.0 * (1.0 - sum_flip / sum_gibbs), untrusted_gibbs, untrusted_flip});
    }
    // Fig. 4: the autocorrelation functions averaged over the trials.
    Table acf({"lag", "G", "T"});
    PlotSeries gibbs{"G", {}, {}, {}, {}, false}, flip{"T", {}, {}, {}, {}, true};
    const Eigen::Index lags = std::min(reported_lags, all[s].steps - 1);
    for (Eigen::Index lag = 0; lag <= lags; ++lag) {
      double mean_gibbs = 0.0, mean_flip = 0.0, count = 0.0;
      for (const JobResult& result : results) {
        if (result.setting != s) continue;
        mean_gibbs += result.gibbs.autocorrelation[lag];
        mean_flip += result.flip.autocorrelation[lag];
        count += 1.0;
      }
      acf.add_row({static_cast<long long>(lag), mean_gibbs / count, mean_flip / count});
      gibbs.x.push_back(static_cast<double>(lag));
      gibbs.y.push_back(mean_gibbs / count);
      flip.x.push_back(static_cast<double>(lag));
      flip.y.push_back(mean_flip / count);
    }
    acf.write_csv(out / ("autocorrelation_" + all[s].name + ".csv"));
    write_svg_plot(out / ("autocorrelation_" + all[s].name + ".svg"), {gibbs, flip},
                   {"Energy autocorrelation, " + all[s].name + " (mean over trials)",
                    "lag Δt (sweeps)",
                    "R(Δt)",
                    false,
                    std::nullopt,
                    std::nullopt,
                    {{"", 0.0}}});
  }
  summary.print(std::cout, 4);
  summary.write_csv(out / "autocorr.csv");

  nlohmann::json configuration = {
      {"scale", arguments.scale},
      {"training", "20-PT10 with Gibbs sweeps, base-rate visible bias, W ~ N(0, 0.01^2)"},
      {"learning_rate", arguments.learning_rate},
      {"mnist", arguments.mnist},
      {"chain", "one chain per RBM and operator, uniform random start, 1000 burn-in"},
      {"job_seed",
       "seed + 1000 * setting number (bas4x4 0, modes_p0.01 1, modes_p0.1 2, mnist_10h 3, mnist_500h 4) + trial"}};
  nlohmann::json setting_json = nlohmann::json::array();
  for (const Setting& setting : all)
    setting_json.push_back({{"name", setting.name},
                            {"rows", setting.data.rows()},
                            {"hidden", setting.hidden},
                            {"batch", setting.batch},
                            {"updates", setting.updates},
                            {"trials", setting.trials},
                            {"steps", setting.steps}});
  configuration["settings"] = setting_json;
  nlohmann::json record = make_run_record("experiment autocorr", configuration, arguments.seed);
  record["seconds"] = seconds;
  record["paper_reference"] = "003 Table 2: gain 17.28 % for MNIST with 500 hidden units";
  write_json_file(out / "autocorr.json", record);
  std::cout << "wrote " << out.string() << "/autocorr.csv, autocorr_trials.csv, autocorrelation_*.csv/.svg, "
            << "autocorr.json (" << seconds << " s)\n";
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<AutocorrArguments>();
  CLI::App* command =
      parent.add_subcommand("autocorr", "003 Table 2: autocorrelation times of G and T on RBMs trained with 20-PT10");
  command->add_option("--scale", arguments->scale, "smoke|paper")->capture_default_str();
  command->add_option("--seed", arguments->seed, "random seed")->capture_default_str();
  command->add_option("--out", arguments->out, "output directory")->required();
  command->add_option("--mnist", arguments->mnist, "MNIST directory (IDX files); MNIST settings run only with it");
  command->add_option("--trials", arguments->trials, "RBMs per setting (default: paper 25, smoke 2)")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  command->add_option("--updates", arguments->updates, "training updates (default: paper 20000, smoke 500)")
      ->check(CLI::Range(std::int64_t{1}, std::numeric_limits<std::int64_t>::max()));
  command->add_option("--steps", arguments->steps, "sampled sweeps per chain (default: paper 10^6, smoke 20000)")
      ->check(CLI::Range(Eigen::Index{2}, std::numeric_limits<Eigen::Index>::max()));
  command->add_option("--lr", arguments->learning_rate, "learning rate")->capture_default_str();
  command
      ->add_option("--only", arguments->only, "settings to run: bas4x4, modes_p0.01, modes_p0.1, mnist_10h, mnist_500h")
      ->delimiter(',');
  command->callback([arguments] { run_autocorr(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach)
