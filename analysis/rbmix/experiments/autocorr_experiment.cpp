#include "rbmix/experiments/autocorr_experiment.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "rbmix/analysis/autocorrelation.hpp"
#include "rbmix/analysis/wilcoxon_signed_rank.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/data/mnist.hpp"
#include "rbmix/experiments/exact_number.hpp"
#include "rbmix/experiments/random_start_energy_traces.hpp"
#include "rbmix/jobs/job_progress.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/jobs/trial_seed.hpp"
#include "rbmix/training/parameter_initialisation.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix::experiments {

void AutocorrOptions::validate() const {
  require(!settings.empty(), "autocorr: no settings to run");
  require(learning_rate > 0.0 && std::isfinite(learning_rate), "--lr must be positive");
  for (const auto& setting : settings) {
    require(setting.data.rows() > 0 && setting.hidden > 0, "autocorr: setting " + setting.name + " has no data");
    require(setting.trials > 0, "--trials must be positive");
    require(setting.updates > 0, "--updates must be positive");
    require(setting.steps >= 2, "--steps must be at least 2");
  }
}

AutocorrOptions autocorr_options(Scale scale, std::uint64_t seed, const std::filesystem::path& mnist,
                                 const AutocorrOverrides& overrides) {
  const bool paper = scale == Scale::paper;
  const int trials = overrides.trials > 0 ? overrides.trials : (paper ? 25 : 2);
  const std::int64_t updates = overrides.updates > 0 ? overrides.updates : (paper ? 20000 : 500);
  const Eigen::Index steps = overrides.steps > 0 ? overrides.steps : (paper ? 1000000 : 20000);
  std::vector<Table2Setting> all;
  all.push_back({"bas4x4", to_real(bars_and_stripes(4)), 16, 0, updates, trials, steps});
  for (const double mutation : {0.01, 0.1})
    all.push_back({mutation == 0.01 ? "modes_p0.01" : "modes_p0.1",
                   to_real(artificial_modes(mutation, 1000, seed).samples), 16, 100, updates, trials, steps});
  if (!mnist.empty()) {
    const LabelledImages images = load_mnist(mnist, MnistPart::train);
    // At most 50 000 (paper) or 10 000 (smoke) rows, fewer where the directory holds fewer images.
    const MatrixD all_digits = to_real(stochastic_binarize(images.images.pixels, seed));
    const MatrixD digits = all_digits.topRows(std::min<Eigen::Index>(paper ? 50000 : 10000, all_digits.rows()));
    const auto batch = static_cast<int>(std::min<Eigen::Index>(100, digits.rows()));
    // Smoke scale: 20-PT10 on 784 pixels costs 200 sweeps of the batch per update, so the MNIST settings train for
    // 50 (10 hidden) and 5 (500 hidden) updates, which keeps the experiment within seconds to a minute.
    all.push_back({"mnist_10h", digits, 10, batch, overrides.updates > 0 ? updates : (paper ? updates : 50), trials,
                   steps});
    // 003 §4.3: 24 RBMs with 500 hidden units, 2000 updates; each sweep costs 50× more, so smoke runs one short one.
    all.push_back({"mnist_500h", digits, 500, batch, overrides.updates > 0 ? updates : (paper ? 2000 : 5),
                   overrides.trials > 0 ? trials : (paper ? 24 : 1),
                   overrides.steps > 0 ? steps : (paper ? steps : 1000)});
  }
  for (std::size_t s = 0; s < all.size(); ++s) all[s].number = s;
  AutocorrOptions options;
  options.seed = seed;
  if (!paper) options.initialisation = {};
  if (overrides.initialisation) options.initialisation = *overrides.initialisation;
  if (overrides.only.empty()) {
    options.settings = all;
  } else {
    for (const std::string& name : overrides.only) {
      const auto found = std::find_if(all.begin(), all.end(), [&](const Table2Setting& s) { return s.name == name; });
      require(found != all.end(), "--only: no setting '" + name + "' (MNIST settings need --mnist)");
      options.settings.push_back(*found);
    }
  }
  return options;
}

nlohmann::json to_json(const AutocorrOptions& options) {
  nlohmann::json configuration = {
      {"source", "003 Table 2, Fig. 4"},
      {"training", "20-PT10 with Gibbs sweeps"},
      {"initialisation", to_string(options.initialisation)},
      {"learning_rate", options.learning_rate},
      {"chain", "one chain per RBM and operator, uniform random start, 1000 burn-in"},
      {"job_seed",
       "training trial_seed(seed, job), chains purpose_seed(seed, job, sampling), job = 1000 * setting number + trial, "
       "setting numbers bas4x4 0, modes_p0.01 1, modes_p0.1 2, "
       "mnist_10h 3, mnist_500h 4"},
      {"paper_reference", "003 Table 2: gain 17.28 % for MNIST with 500 hidden units"}};
  nlohmann::json settings = nlohmann::json::array();
  for (const Table2Setting& setting : options.settings) settings.push_back(to_json(setting));
  configuration["settings"] = settings;
  return configuration;
}

namespace {

AutocorrTrial run_trial(const AutocorrOptions& options, std::size_t setting_index, int trial,
                        const JobProgress& progress) {
  const Table2Setting& setting = options.settings[setting_index];
  AutocorrTrial result;
  result.setting = setting_index;
  result.trial = trial;
  const std::uint64_t job = 1000 * setting.number + static_cast<std::uint64_t>(trial);
  const std::uint64_t seed = trial_seed(options.seed, job);
  const std::uint64_t chain_seed = purpose_seed(options.seed, job, SeedPurpose::sampling);
  const auto start = std::chrono::steady_clock::now();
  const Rbm rbm = train_table2_rbm(setting, options.learning_rate, options.initialisation, seed, progress);
  result.train_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const UnitRule rule : {UnitRule{GibbsRule{}}, UnitRule{FlipTheStateRule{}}}) {
    const MatrixD traces = sample_energy_traces(
        rbm, {rule, setting.steps, 1, 1000, chain_seed, false, chain_progress(rule, setting.steps + 1000, progress)});
    progress.stage(to_string(rule) + " chain's autocorrelation time");
    AutocorrOperatorResult& out = std::holds_alternative<GibbsRule>(rule) ? result.gibbs : result.flip;
    out.estimates = analysis::integrated_autocorrelation_times(traces);
    const Eigen::Index lags = std::min(autocorr_reported_lags, setting.steps - 1);
    const analysis::TraceAutocovariance covariance = analysis::trace_autocovariance(traces, lags);
    out.autocorrelation =
        covariance.mean_autocovariance[0] > 0.0
            ? VectorD(covariance.mean_autocovariance.head(lags + 1) / covariance.mean_autocovariance[0])
            : VectorD::Constant(lags + 1, std::nan(""));
  }
  return result;
}

}  // namespace

namespace {

nlohmann::json operator_to_grid_json(const AutocorrOperatorResult& result) {
  nlohmann::json estimates = nlohmann::json::array();
  for (const auto& estimate : result.estimates) estimates.push_back(exact_estimate(estimate));
  const std::vector<double> autocorrelation(result.autocorrelation.begin(), result.autocorrelation.end());
  return {{"estimates", estimates}, {"autocorrelation", exact_numbers(autocorrelation)}};
}

// The autocorrelation is finite from ρ(0) = 1 on, or NaN at every lag where the traces are constant.
AutocorrOperatorResult operator_from_grid_json(const JournaledValue& json) {
  AutocorrOperatorResult result;
  for (const JournaledValue& estimate : json["estimates"].elements())
    result.estimates.push_back(read_exact_estimate(estimate));
  const std::vector<JournaledValue> autocorrelation = json["autocorrelation"].elements();
  result.autocorrelation.resize(static_cast<Eigen::Index>(autocorrelation.size()));
  for (std::size_t lag = 0; lag < autocorrelation.size(); ++lag)
    result.autocorrelation(static_cast<Eigen::Index>(lag)) = autocorrelation[lag].finite_or_missing();
  const bool constant = result.autocorrelation.array().isNaN().all();
  json["autocorrelation"].require_that(
      result.autocorrelation.size() > 0 &&
          (constant || (result.autocorrelation[0] == 1.0 && result.autocorrelation.allFinite())),
      "not an autocorrelation from ρ(0) = 1 on (or NaN at every lag)");
  return result;
}

}  // namespace

nlohmann::json to_grid_json(const AutocorrTrial& trial) {
  return {{"setting", trial.setting},
          {"trial", trial.trial},
          {"train_seconds", exact_number(trial.train_seconds)},
          {"gibbs", operator_to_grid_json(trial.gibbs)},
          {"flip", operator_to_grid_json(trial.flip)}};
}

void from_grid_json(const nlohmann::json& json, AutocorrTrial& trial) {
  const JournaledValue journaled(json);
  trial.setting = journaled["setting"].integer<std::size_t>(0);
  trial.trial = journaled["trial"].integer<int>(0);
  trial.train_seconds = journaled["train_seconds"].at_least(0.0);
  trial.gibbs = operator_from_grid_json(journaled["gibbs"]);
  trial.flip = operator_from_grid_json(journaled["flip"]);
}

OrPartDone<AutocorrResult> run_autocorr(const AutocorrOptions& options, const JobRunner& runner) {
  options.validate();
  std::vector<std::pair<std::size_t, int>> jobs;
  for (std::size_t s = 0; s < options.settings.size(); ++s)
    for (int trial = 0; trial < options.settings[s].trials; ++trial) jobs.emplace_back(s, trial);
  AutocorrResult result;
  auto trials = run_jobs(runner, JobPhase{0}, jobs.size(), [&](std::size_t j, const JobProgress& progress) {
    return run_trial(options, jobs[j].first, jobs[j].second, progress);
  });
  if (!trials) return trials.part_done();
  result.trials = std::move(trials).value();
  return result;
}

namespace {

// The kinds of reason a trust verdict gives (trust_verdict, docs/algorithms/mixing-metrics.md §6.6), in the words of
// the table.
std::vector<std::string> reason_kinds(const std::string& warning) {
  std::vector<std::string> kinds;
  std::size_t begin = 0;
  while (begin < warning.size()) {
    const std::size_t end = std::min(warning.find("; ", begin), warning.size());
    const std::string reason = warning.substr(begin, end - begin);
    if (reason.find("R̂") != std::string::npos)
      kinds.push_back("rhat");
    else if (reason.find("τ̂ long") != std::string::npos)
      kinds.push_back("short_chain");
    else if (reason.find("interval") != std::string::npos)
      kinds.push_back("wide_interval");
    else if (reason.find("cross-check") != std::string::npos)
      kinds.push_back("cross_check");
    else
      kinds.push_back("method_warning");
    begin = end + 2;
  }
  return kinds;
}

// "kind count" for every kind met, in a fixed order, e.g. "G cross_check 2; T wide_interval 1".
std::string exclusion_reasons(const std::map<std::string, long long>& gibbs,
                              const std::map<std::string, long long>& flip) {
  std::string text;
  for (const auto& [label, counts] : {std::pair{"G", &gibbs}, std::pair{"T", &flip}})
    for (const auto& [kind, count] : *counts)
      text += (text.empty() ? "" : "; ") + std::string(label) + " " + kind + " " + std::to_string(count);
  return text;
}

}  // namespace

Table autocorr_summary_table(const AutocorrOptions& options, const AutocorrResult& result) {
  Table summary({"setting", "hidden", "trials", "steps", "estimator", "headline", "used", "excluded",
                 "excluded_because", "tau_G", "tau_T", "gain_percent", "wilcoxon_p"});
  if (result.trials.empty()) return summary;
  // Every trial has the same estimators in the same order (integrated_autocorrelation_times); the recommended one
  // (docs/algorithms/calibration.md §6.7) comes first, the others beside it.
  const auto& methods = result.trials.front().gibbs.estimates;
  const std::vector<std::size_t> order = analysis::recommended_first(methods);
  for (std::size_t s = 0; s < options.settings.size(); ++s) {
    const Table2Setting& setting = options.settings[s];
    for (const std::size_t e : order) {
      // 003 Table 2's gain from the trials whose G and T estimates are both trusted: an untrusted τ̂ may be off by
      // any factor (§6.7), and one such trial would set the mean.
      std::vector<double> gibbs, flip;
      std::map<std::string, long long> gibbs_reasons, flip_reasons;
      long long count = 0;
      for (const AutocorrTrial& trial : result.trials) {
        if (trial.setting != s) continue;
        ++count;
        const analysis::IntegratedTimeEstimate& g = trial.gibbs.estimates[e];
        const analysis::IntegratedTimeEstimate& t = trial.flip.estimates[e];
        for (const std::string& kind : reason_kinds(g.warning)) ++gibbs_reasons[kind];
        for (const std::string& kind : reason_kinds(t.warning)) ++flip_reasons[kind];
        if (!g.trusted || !t.trusted) continue;
        gibbs.push_back(g.time);
        flip.push_back(t.time);
      }
      const auto mean = [](const std::vector<double>& values) {
        double sum = 0.0;
        for (const double value : values) sum += value;
        return values.empty() ? std::nan("") : sum / static_cast<double>(values.size());
      };
      const double mean_gibbs = mean(gibbs), mean_flip = mean(flip);
      const long long used = static_cast<long long>(gibbs.size());
      summary.add_row({setting.name, static_cast<long long>(setting.hidden), count,
                       static_cast<long long>(setting.steps), methods[e].method,
                       std::string(methods[e].method == analysis::recommended_integrated_time_method ? "yes" : "no"),
                       used, count - used, exclusion_reasons(gibbs_reasons, flip_reasons), mean_gibbs, mean_flip,
                       100.0 * (1.0 - mean_flip / mean_gibbs),
                       used > 0 ? analysis::wilcoxon_signed_rank(gibbs, flip).p_value : std::nan("")});
    }
  }
  return summary;
}

namespace {

// autocorr_trials.csv (every estimate), autocorr.csv (Table 2) and, per setting, autocorrelation_<name>.csv/.svg
// (Fig. 4: the autocorrelation functions of G and T averaged over the trials).
void write_autocorr(const AutocorrOptions& options, const AutocorrResult& result, ResultDirectory& out) {
  Table trials(
      {"setting", "trial", "operator", "estimator", "tau", "lower", "upper", "trusted", "warning", "train_seconds"});
  for (const AutocorrTrial& trial : result.trials)
    for (const auto* operator_result : {&trial.gibbs, &trial.flip})
      for (const auto& estimate : operator_result->estimates)
        trials.add_row({options.settings[trial.setting].name, static_cast<long long>(trial.trial),
                        std::string(operator_result == &trial.gibbs ? "G" : "T"), estimate.method, estimate.time,
                        estimate.lower, estimate.upper, estimate.trusted, estimate.warning, trial.train_seconds});
  out.write_csv("autocorr_trials.csv", trials);

  for (std::size_t s = 0; s < options.settings.size(); ++s) {
    const Table2Setting& setting = options.settings[s];
    // Fig. 4: the autocorrelation functions averaged over the trials.
    Table acf({"lag", "G", "T"});
    PlotSeries gibbs{"G", {}, {}, {}, {}, false}, flip{"T", {}, {}, {}, {}, true};
    const Eigen::Index lags = std::min(autocorr_reported_lags, setting.steps - 1);
    for (Eigen::Index lag = 0; lag <= lags; ++lag) {
      double mean_gibbs = 0.0, mean_flip = 0.0, count = 0.0;
      for (const AutocorrTrial& trial : result.trials) {
        if (trial.setting != s) continue;
        mean_gibbs += trial.gibbs.autocorrelation[lag];
        mean_flip += trial.flip.autocorrelation[lag];
        count += 1.0;
      }
      acf.add_row({static_cast<long long>(lag), mean_gibbs / count, mean_flip / count});
      gibbs.x.push_back(static_cast<double>(lag));
      gibbs.y.push_back(mean_gibbs / count);
      flip.x.push_back(static_cast<double>(lag));
      flip.y.push_back(mean_flip / count);
    }
    out.write_csv("autocorrelation_" + setting.name + ".csv", acf);
    out.write_svg("autocorrelation_" + setting.name + ".svg", {gibbs, flip},
                  autocorrelation_plot_options("Energy autocorrelation, " + setting.name + " (mean over trials)"));
  }
  out.write_csv("autocorr.csv", autocorr_summary_table(options, result));
}

}  // namespace

std::vector<ExperimentOption> Autocorr::own_options() {
  return {{"--trials", "RBMs per setting (default: paper 25, smoke 2)"},
          {"--updates", "training updates (default: paper 20000, smoke 500)"},
          {"--steps", "sampled sweeps per chain (default: paper 10^6, smoke 20000)"},
          {"--lr", "learning rate (default 0.05)"},
          {"--init",
           std::string(parameter_initialisation_help) + "; default: paper normal:0.01 (003 §4.2), smoke base-rate"},
          {"--only", "settings to run: bas4x4, modes_p0.01, modes_p0.1, mnist_10h, mnist_500h"}};
}

AutocorrOptions Autocorr::make_options(const ExperimentInputs& inputs) {
  AutocorrOverrides overrides;
  if (const auto trials = inputs.integer("--trials", 1)) overrides.trials = static_cast<int>(*trials);
  if (const auto updates = inputs.integer("--updates", 1)) overrides.updates = *updates;
  if (const auto steps = inputs.integer("--steps", 2)) overrides.steps = *steps;
  if (const auto only = inputs.words("--only")) overrides.only = *only;
  if (const auto initialisation = inputs.text("--init"))
    overrides.initialisation = parse_parameter_initialisation(*initialisation);
  AutocorrOptions options = autocorr_options(inputs.scale, inputs.seed, inputs.mnist, overrides);
  options.learning_rate = inputs.positive_number("--lr").value_or(AutocorrOptions{}.learning_rate);
  options.validate();
  return options;
}

nlohmann::json Autocorr::configuration(const AutocorrOptions& options) { return to_json(options); }

OrPartDone<AutocorrResult> Autocorr::run(const AutocorrOptions& options, const JobRunner& runner, std::ostream& log) {
  log << "autocorr (003 Table 2): " << options.settings.size() << " settings, 20-PT10 training, G and T chains\n";
  return run_autocorr(options, runner);
}

ExperimentReport Autocorr::report(const AutocorrOptions& options, const AutocorrResult& result, ResultDirectory& out,
                                  std::ostream& log) {
  write_autocorr(options, result, out);
  ExperimentReport report;
  report.tables.push_back({"summary", autocorr_summary_table(options, result)});
  report.tables.back().table.print(log, 4);
  return report;
}

}  // namespace rbmix::experiments
