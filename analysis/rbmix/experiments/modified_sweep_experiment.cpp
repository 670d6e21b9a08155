#include "rbmix/experiments/modified_sweep_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rbmix/analysis/autocorrelation.hpp"
#include "rbmix/analysis/operator_analysis.hpp"
#include "rbmix/analysis/state_space.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/data/mnist.hpp"
#include "rbmix/experiments/exact_number.hpp"
#include "rbmix/experiments/job_progress.hpp"
#include "rbmix/experiments/job_runner.hpp"
#include "rbmix/experiments/random_rbm_family.hpp"
#include "rbmix/experiments/random_start_energy_traces.hpp"
#include "rbmix/experiments/sample_statistics.hpp"
#include "rbmix/experiments/trial_seed.hpp"
#include "rbmix/training/parameter_initialisation.hpp"

namespace rbmix::experiments {
namespace {

// G, T and T^α come first in both operator lists; the γ family follows.
constexpr std::size_t kGibbs = 0, kFlip = 1, kMixture = 2, kFirstShift = 3;
// A γ "beats" G and T only by more than rounding: SLEMs and τ are computed to about 1e-12 relative.
constexpr double kBeatMargin = 1e-9;
// Sweeps before a trained RBM's energy trace is recorded (as in the autocorr experiment).
constexpr Eigen::Index kBurnIn = 1000;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<UnitRule> operators_with(const ModifiedSweepOptions& options, const std::vector<double>& shifts) {
  std::vector<UnitRule> rules{GibbsRule{}, FlipTheStateRule{}, MixtureRule{options.mixture_weight}};
  for (const double gamma : shifts) rules.push_back(UnitModifiedRule{gamma});
  return rules;
}

// Some γ of the family is below both G and T by more than kBeatMargin (relative for τ); NaNs never beat or lose.
bool some_shift_beats(const std::vector<double>& values, bool relative) {
  const double reference = std::fmin(values[kGibbs], values[kFlip]);  // fmin skips a NaN
  if (!std::isfinite(reference)) return false;
  const double bar = relative ? reference * (1.0 - kBeatMargin) : reference - kBeatMargin;
  for (std::size_t k = kFirstShift; k < values.size(); ++k)
    if (values[k] < bar) return true;
  return false;
}

ModifiedSweepRbm analyse_random_rbm(const ModifiedSweepOptions& options, ModifiedSweepRbm job) {
  const Rbm rbm = fig3_random_rbm(options.seed, job.size, job.weight_bound, job.index);
  for (const UnitRule& rule : modified_sweep_random_operators(options)) {
    const analysis::OperatorAnalysis analysis = analysis::analyse_operator(rbm, {rule, false});
    job.slem.push_back(analysis.slem.slem);
    job.tau.push_back(analysis.energy_autocorrelation_time.value_or(kNaN));
  }
  return job;
}

ModifiedSweepTrainedTrial run_trained_trial(const ModifiedSweepOptions& options, std::size_t setting_index, int trial,
                                            const JobProgress& progress) {
  const Table2Setting& setting = options.trained[setting_index];
  ModifiedSweepTrainedTrial result;
  result.setting = setting_index;
  result.trial = trial;
  // The job numbers are autocorr's, so the same trial seeds train the same RBMs and sample them alike.
  const std::uint64_t job = 1000 * setting.number + static_cast<std::uint64_t>(trial);
  const Rbm rbm =
      train_table2_rbm(setting, options.learning_rate, options.initialisation, trial_seed(options.seed, job), progress);
  const std::uint64_t chain_seed = purpose_seed(options.seed, job, SeedPurpose::sampling);
  for (const UnitRule& rule : modified_sweep_trained_operators(options)) {
    const MatrixD traces = sample_energy_traces(rbm, {rule, setting.steps, 1, kBurnIn, chain_seed, false,
                                                      chain_progress(rule, setting.steps + kBurnIn, progress)});
    progress.stage(to_string(rule) + " chain's autocorrelation time");
    result.estimates.push_back(analysis::integrated_autocorrelation_times(traces));
  }
  return result;
}

}  // namespace

void ModifiedSweepOptions::validate() const {
  family.validate(analysis::max_joint_units / 2);
  require(!shifts.empty(), "--gammas: give at least one γ");
  for (const double gamma : shifts) require(gamma >= 0.0 && gamma <= 1.0, "--gammas: every γ must lie in [0, 1]");
  for (const double gamma : trained_shifts)
    require(gamma >= 0.0 && gamma <= 1.0, "--trained-gammas: every γ must lie in [0, 1]");
  require(mixture_weight >= 0.0 && mixture_weight <= 1.0, "--alpha must lie in [0, 1]");
  require(learning_rate > 0.0 && std::isfinite(learning_rate), "--lr must be positive");
  for (const auto& setting : trained) {
    require(setting.data.rows() > 0 && setting.hidden > 0, "modified-sweep: setting " + setting.name + " has no data");
    require(setting.trials > 0, "--trials must be positive");
    require(setting.updates > 0, "--updates must be positive");
    require(setting.steps >= 2, "--steps must be at least 2");
  }
}

ModifiedSweepOptions modified_sweep_options(Scale scale, std::uint64_t seed, const std::filesystem::path& mnist) {
  const bool paper = scale == Scale::paper;
  ModifiedSweepOptions options;
  options.seed = seed;
  const int trials = paper ? 10 : 1;
  const std::int64_t updates = paper ? 20000 : 100;
  const Eigen::Index steps = paper ? 100000 : 2000;
  // 003 §4.2's N(0, 0.01²) start at paper scale and rbmix's base-rate start at smoke scale, as autocorr.
  if (paper) options.initialisation = {ParameterInitialisation::Biases::normal, 0.01};
  if (!paper) {
    options.family.sizes = {2, 3};
    options.family.rbms_per_setting = 3;
    options.shifts = {0.0, 0.5, 1.0};
    options.trained_shifts = {0.5};
  }
  // Setting numbers 0 (bas4x4) and 3 (mnist_10h) are the autocorr experiment's: the same trial seeds train the
  // same RBMs there and here.
  options.trained.push_back({"bas4x4", to_real(bars_and_stripes(4)), 16, 0, updates, trials, steps, 0});
  if (mnist.empty()) {
    options.mnist_skipped = "MNIST with 10 hidden units skipped: give --mnist DIR (rbmix data fetch mnist)";
  } else {
    const LabelledImages images = load_mnist(mnist, MnistPart::train);
    // At most 50 000 (paper) or 10 000 (smoke) rows, fewer where the directory holds fewer images.
    const MatrixD all_digits = to_real(stochastic_binarize(images.images.pixels, seed));
    const MatrixD digits = all_digits.topRows(std::min<Eigen::Index>(paper ? 50000 : 10000, all_digits.rows()));
    const auto batch = static_cast<int>(std::min<Eigen::Index>(100, digits.rows()));
    options.trained.push_back({"mnist_10h", digits, 10, batch, updates, trials, steps, 3});
  }
  return options;
}

nlohmann::json to_json(const ModifiedSweepOptions& options) {
  nlohmann::json settings = nlohmann::json::array();
  for (const auto& setting : options.trained) settings.push_back(to_json(setting));
  nlohmann::json configuration = {
      {"source", "001 §3 per unit; random RBMs of 003 Fig. 3; trained RBMs as in 003 Table 2"},
      {"weights", "U[-c, c], biases 0 (the slem-sweep RBMs)"},
      {"gammas", options.shifts},
      {"alpha", options.mixture_weight},
      {"exact", "SLEM and energy autocorrelation time of the joint sweep, dense up to 2^10 states, matrix-free beyond"},
      {"trained_gammas", options.trained_shifts},
      {"training",
       "20-PT10 with Gibbs sweeps, trial_seed(seed, job); chains purpose_seed(seed, job, sampling); job = 1000 * "
       "autocorr setting number + trial"},
      {"learning_rate", options.learning_rate},
      {"initialisation", to_string(options.initialisation)},
      {"chain", "one chain per RBM and operator, uniform random start, 1000 burn-in"},
      {"trained_settings", settings}};
  configuration.update(to_json(options.family));
  if (!options.mnist_skipped.empty()) configuration["skipped"] = options.mnist_skipped;
  return configuration;
}

std::vector<UnitRule> modified_sweep_random_operators(const ModifiedSweepOptions& options) {
  return operators_with(options, options.shifts);
}

std::vector<UnitRule> modified_sweep_trained_operators(const ModifiedSweepOptions& options) {
  return operators_with(options, options.trained_shifts);
}

nlohmann::json to_grid_json(const ModifiedSweepRbm& rbm) {
  return {{"size", rbm.size},
          {"c", rbm.weight_bound},
          {"index", rbm.index},
          {"slem", exact_numbers(rbm.slem)},
          {"tau", exact_numbers(rbm.tau)}};
}

void from_grid_json(const nlohmann::json& json, ModifiedSweepRbm& rbm) {
  rbm.size = json.at("size").get<int>();
  rbm.weight_bound = json.at("c").get<int>();
  rbm.index = json.at("index").get<int>();
  rbm.slem = read_exact_numbers(json.at("slem"));
  rbm.tau = read_exact_numbers(json.at("tau"));
}

nlohmann::json to_grid_json(const ModifiedSweepTrainedTrial& trial) {
  nlohmann::json operators = nlohmann::json::array();
  for (const auto& estimates : trial.estimates) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& estimate : estimates) list.push_back(exact_estimate(estimate));
    operators.push_back(list);
  }
  return {{"setting", trial.setting}, {"trial", trial.trial}, {"operators", operators}};
}

void from_grid_json(const nlohmann::json& json, ModifiedSweepTrainedTrial& trial) {
  trial.setting = json.at("setting").get<std::size_t>();
  trial.trial = json.at("trial").get<int>();
  trial.estimates.clear();
  for (const auto& list : json.at("operators")) {
    std::vector<analysis::IntegratedTimeEstimate> estimates;
    for (const auto& estimate : list) estimates.push_back(read_exact_estimate(estimate));
    trial.estimates.push_back(estimates);
  }
}

OrPartDone<ModifiedSweepResult> run_modified_sweep(const ModifiedSweepOptions& options, const JobRunner& runner) {
  options.validate();
  std::vector<ModifiedSweepRbm> rbms;
  for (const int size : options.family.sizes)
    for (const int bound : options.family.weight_bounds)
      for (int index = 0; index < options.family.rbms_per_setting; ++index)
        rbms.push_back({size, bound, index, {}, {}});
  std::vector<std::pair<std::size_t, int>> trials;
  for (std::size_t s = 0; s < options.trained.size(); ++s)
    for (int trial = 0; trial < options.trained[s].trials; ++trial) trials.emplace_back(s, trial);
  ModifiedSweepResult result;
  auto analysed =
      run_jobs(runner, JobPhase{0}, rbms.size(), [&](std::size_t k) { return analyse_random_rbm(options, rbms[k]); });
  if (!analysed) return analysed.part_done();
  result.rbms = std::move(analysed).value();
  auto trained = run_jobs(runner, JobPhase{1}, trials.size(), [&](std::size_t k, const JobProgress& progress) {
    return run_trained_trial(options, trials[k].first, trials[k].second, progress);
  });
  if (!trained) return trained.part_done();
  result.trained = std::move(trained).value();
  return result;
}

namespace {

// Per (size, c): for every random operator, its SLEMs and τs over the RBMs.
struct SettingValues {
  int size = 0;
  int weight_bound = 0;
  std::vector<std::vector<double>> slem, tau;  // [operator][rbm]
  int shift_beats_slem = 0, shift_beats_tau = 0;
};

std::vector<SettingValues> setting_values(const ModifiedSweepOptions& options, const ModifiedSweepResult& result) {
  std::vector<SettingValues> settings;
  const std::size_t operators = modified_sweep_random_operators(options).size();
  for (std::size_t k = 0; k < result.rbms.size(); k += static_cast<std::size_t>(options.family.rbms_per_setting)) {
    SettingValues values{result.rbms[k].size, result.rbms[k].weight_bound, std::vector<std::vector<double>>(operators),
                         std::vector<std::vector<double>>(operators)};
    for (int index = 0; index < options.family.rbms_per_setting; ++index) {
      const ModifiedSweepRbm& rbm = result.rbms[k + static_cast<std::size_t>(index)];
      for (std::size_t op = 0; op < operators; ++op) {
        values.slem[op].push_back(rbm.slem[op]);
        values.tau[op].push_back(rbm.tau[op]);
      }
      values.shift_beats_slem += some_shift_beats(rbm.slem, false);
      values.shift_beats_tau += some_shift_beats(rbm.tau, true);
    }
    settings.push_back(values);
  }
  return settings;
}

// The γ whose statistic is smallest (the first on ties) and that statistic; NaN when none is finite.
std::pair<double, double> best_shift(const ModifiedSweepOptions& options, const std::vector<double>& statistic) {
  std::pair<double, double> best{kNaN, kNaN};
  for (std::size_t k = 0; k < options.shifts.size(); ++k) {
    const double value = statistic[kFirstShift + k];
    if (std::isfinite(value) && !(value >= best.second)) best = {options.shifts[k], value};
  }
  return best;
}

std::vector<double> mean_slems(const SettingValues& values) {
  std::vector<double> out;
  for (const auto& slems : values.slem) out.push_back(mean(slems));
  return out;
}

std::vector<double> median_taus(const SettingValues& values) {
  std::vector<double> out;
  for (const auto& taus : values.tau) out.push_back(finite_median(taus));
  return out;
}

}  // namespace

Table modified_sweep_summary_table(const ModifiedSweepOptions& options, const ModifiedSweepResult& result) {
  Table table({"size", "c", "rbms", "slem_G", "slem_T", "slem_Talpha", "best_gamma_slem", "slem_best_gamma",
               "share_gamma_beats_G_and_T_slem", "tau_G", "tau_T", "tau_Talpha", "best_gamma_tau", "tau_best_gamma",
               "share_gamma_beats_G_and_T_tau"});
  for (const SettingValues& values : setting_values(options, result)) {
    const std::vector<double> slem = mean_slems(values), tau = median_taus(values);
    const auto [gamma_slem, best_slem] = best_shift(options, slem);
    const auto [gamma_tau, best_tau] = best_shift(options, tau);
    const double rbms = options.family.rbms_per_setting;
    table.add_row({static_cast<long long>(values.size), static_cast<long long>(values.weight_bound),
                   static_cast<long long>(options.family.rbms_per_setting), slem[kGibbs], slem[kFlip], slem[kMixture],
                   gamma_slem, best_slem, values.shift_beats_slem / rbms, tau[kGibbs], tau[kFlip], tau[kMixture],
                   gamma_tau, best_tau, values.shift_beats_tau / rbms});
  }
  return table;
}

Table modified_sweep_trained_table(const ModifiedSweepOptions& options, const ModifiedSweepResult& result) {
  Table table({"setting", "hidden", "trials", "steps", "operator", "estimator", "headline", "tau", "tau_over_tau_G",
               "untrusted"});
  if (result.trained.empty()) return table;
  const std::vector<UnitRule> operators = modified_sweep_trained_operators(options);
  // Every trial has the same estimators, in the same order (integrated_autocorrelation_times); the recommended one
  // (docs/algorithms.md §6.7) first.
  const std::vector<std::size_t> order = analysis::recommended_first(result.trained.front().estimates.front());
  for (std::size_t s = 0; s < options.trained.size(); ++s) {
    const Table2Setting& setting = options.trained[s];
    for (const std::size_t e : order) {
      std::vector<double> sums(operators.size(), 0.0);
      std::vector<long long> untrusted(operators.size(), 0);
      long long count = 0;
      std::string method;
      for (const ModifiedSweepTrainedTrial& trial : result.trained) {
        if (trial.setting != s) continue;
        ++count;
        for (std::size_t op = 0; op < operators.size(); ++op) {
          method = trial.estimates[op][e].method;
          sums[op] += trial.estimates[op][e].time;
          untrusted[op] += trial.estimates[op][e].trusted ? 0 : 1;
        }
      }
      for (std::size_t op = 0; op < operators.size(); ++op)
        table.add_row({setting.name, static_cast<long long>(setting.hidden), count,
                       static_cast<long long>(setting.steps), to_string(operators[op]), method,
                       std::string(method == analysis::recommended_integrated_time_method ? "yes" : "no"),
                       sums[op] / static_cast<double>(count), sums[op] / sums[kGibbs], untrusted[op]});
    }
  }
  return table;
}

namespace {

// Per (size, c, operator): mean SLEM and median τ; per random RBM: every operator's SLEM and τ.
void write_random_rbm_tables(const ModifiedSweepOptions& options, const ModifiedSweepResult& result,
                             const std::vector<SettingValues>& settings, ResultDirectory& out) {
  const std::vector<UnitRule> operators = modified_sweep_random_operators(options);
  Table curve({"size", "c", "operator", "gamma", "mean_slem", "median_tau", "tau_missing"});
  for (const SettingValues& values : settings) {
    const std::vector<double> slem = mean_slems(values), tau = median_taus(values);
    for (std::size_t op = 0; op < operators.size(); ++op) {
      const auto missing = std::count_if(values.tau[op].begin(), values.tau[op].end(),
                                         [](double value) { return !std::isfinite(value); });
      curve.add_row({static_cast<long long>(values.size), static_cast<long long>(values.weight_bound),
                     to_string(operators[op]), op >= kFirstShift ? options.shifts[op - kFirstShift] : kNaN, slem[op],
                     tau[op], static_cast<long long>(missing)});
    }
  }
  out.write_csv("modified_sweep_curve.csv", curve);

  Table per_rbm({"size", "c", "index", "operator", "slem", "tau"});
  for (const ModifiedSweepRbm& rbm : result.rbms)
    for (std::size_t op = 0; op < operators.size(); ++op)
      per_rbm.add_row({static_cast<long long>(rbm.size), static_cast<long long>(rbm.weight_bound),
                       static_cast<long long>(rbm.index), to_string(operators[op]), rbm.slem[op], rbm.tau[op]});
  out.write_csv("modified_sweep_per_rbm.csv", per_rbm);
}

// Mean SLEM and relative τ against γ for the largest size, and the best γ against c for every size.
void write_gamma_plots(const ModifiedSweepOptions& options, const std::vector<SettingValues>& settings,
                       ResultDirectory& out) {
  // Against γ, for the largest size: mean SLEM, and median τ relative to G's (τ spans orders of magnitude over c).
  const int largest = *std::max_element(options.family.sizes.begin(), options.family.sizes.end());
  std::vector<PlotSeries> slem_lines, tau_lines, best_lines;
  for (const SettingValues& values : settings) {
    if (values.size != largest) continue;
    const std::vector<double> slem = mean_slems(values), tau = median_taus(values);
    PlotSeries slem_line{"c = " + format_plot_number(values.weight_bound), {}, {}, {}, {}, false};
    PlotSeries tau_line = slem_line;
    for (std::size_t k = 0; k < options.shifts.size(); ++k) {
      slem_line.x.push_back(options.shifts[k]);
      slem_line.y.push_back(slem[kFirstShift + k]);
      tau_line.x.push_back(options.shifts[k]);
      tau_line.y.push_back(tau[kFirstShift + k] / tau[kGibbs]);
    }
    slem_lines.push_back(slem_line);
    tau_lines.push_back(tau_line);
  }
  const std::string size_text = std::to_string(largest) + "x" + std::to_string(largest);
  out.write_svg("modified_sweep_slem.svg", slem_lines,
                {"Mean SLEM of unit-modified:γ, " + size_text + " RBMs",
                 "γ",
                 "mean SLEM",
                 false,
                 std::nullopt,
                 std::nullopt,
                 {}});
  out.write_svg("modified_sweep_tau.svg", tau_lines,
                {"Median energy τ of unit-modified:γ relative to G, " + size_text + " RBMs",
                 "γ",
                 "τ / τ_G",
                 false,
                 std::nullopt,
                 std::nullopt,
                 {{"G", 1.0}}});
  for (const int size : options.family.sizes) {
    PlotSeries line{std::to_string(size) + "x" + std::to_string(size), {}, {}, {}, {}, false};
    for (const SettingValues& values : settings)
      if (values.size == size) {
        line.x.push_back(values.weight_bound);
        line.y.push_back(best_shift(options, median_taus(values)).first);
      }
    best_lines.push_back(line);
  }
  out.write_svg("modified_sweep_best_gamma.svg", best_lines,
                {"γ with the smallest median energy τ", "weight bound c", "best γ", false, 0.0, 1.0, {}});
}

// Every estimate of every trained RBM, and their summary.
void write_trained_tables(const ModifiedSweepOptions& options, const ModifiedSweepResult& result,
                          ResultDirectory& out) {
  // No timings here: the tables are byte-identical however the grid ran.
  Table trials({"setting", "trial", "operator", "estimator", "tau", "lower", "upper", "trusted", "warning"});
  const std::vector<UnitRule> trained_operators = modified_sweep_trained_operators(options);
  for (const ModifiedSweepTrainedTrial& trial : result.trained)
    for (std::size_t op = 0; op < trained_operators.size(); ++op)
      for (const auto& estimate : trial.estimates[op])
        trials.add_row({options.trained[trial.setting].name, static_cast<long long>(trial.trial),
                        to_string(trained_operators[op]), estimate.method, estimate.time, estimate.lower,
                        estimate.upper, estimate.trusted, estimate.warning});
  out.write_csv("modified_sweep_trained_trials.csv", trials);
  out.write_csv("modified_sweep_trained.csv", modified_sweep_trained_table(options, result));
}

}  // namespace

namespace {

// modified_sweep.csv (summary), modified_sweep_curve.csv (per size, c and operator), modified_sweep_per_rbm.csv,
// modified_sweep_trained.csv and modified_sweep_trained_trials.csv (when trained settings ran), and the plots
// modified_sweep_slem.svg and modified_sweep_tau.svg (mean SLEM and median τ/τ_G against γ, largest size, one line
// per c) and modified_sweep_best_gamma.svg (the best γ by τ against c, one line per size).
void write_modified_sweep(const ModifiedSweepOptions& options, const ModifiedSweepResult& result,
                          ResultDirectory& out) {
  const std::vector<SettingValues> settings = setting_values(options, result);
  out.write_csv("modified_sweep.csv", modified_sweep_summary_table(options, result));
  write_random_rbm_tables(options, result, settings, out);
  write_gamma_plots(options, settings, out);
  if (!result.trained.empty()) write_trained_tables(options, result, out);
}

}  // namespace

std::vector<ExperimentOption> ModifiedSweep::own_options() {
  return {{"--sizes",
           "m = n values of the random RBMs, e.g. 2,3,4; above 5 the matrix-free route (slow) (default: "
           "paper 2,3,4; smoke 2,3)"},
          {"--c", "weight bounds, A:B or A,B,C (default 1:10)"},
          {"--count", "random RBMs per (size, c) (default: paper 100; smoke 3)"},
          {"--gammas", "γ values on the random RBMs, e.g. 0,0.5,1"},
          {"--trained-gammas", "γ values on the trained RBMs"},
          {"--alpha", "α of the mixture T^α (default 0.5)"},
          {"--trials", "trained RBMs per setting; 0 skips them (default: paper 10; smoke 1)"},
          {"--updates", "training updates (default: paper 20000; smoke 100)"},
          {"--steps", "sampled sweeps per trained RBM and operator"}};
}

ModifiedSweepOptions ModifiedSweep::make_options(const ExperimentInputs& inputs) {
  ModifiedSweepOptions options = modified_sweep_options(inputs.scale, inputs.seed, inputs.mnist);
  read_family_options(inputs, options.family);
  if (const auto shifts = inputs.numbers("--gammas")) options.shifts = *shifts;
  if (const auto shifts = inputs.numbers("--trained-gammas")) options.trained_shifts = *shifts;
  if (const auto alpha = inputs.number("--alpha")) options.mixture_weight = *alpha;
  const auto trials = inputs.integer("--trials", 0);
  if (trials == 0) options.trained.clear();
  const auto updates = inputs.integer("--updates", 1);
  const auto steps = inputs.integer("--steps", 2);
  for (auto& setting : options.trained) {
    if (trials) setting.trials = static_cast<int>(*trials);
    if (updates) setting.updates = *updates;
    if (steps) setting.steps = *steps;
  }
  options.validate();
  return options;
}

nlohmann::json ModifiedSweep::configuration(const ModifiedSweepOptions& options) { return to_json(options); }

OrPartDone<ModifiedSweepResult> ModifiedSweep::run(const ModifiedSweepOptions& options, const JobRunner& runner,
                                                   std::ostream& log) {
  if (!options.mnist_skipped.empty() && !options.trained.empty()) log << options.mnist_skipped << '\n';
  return run_modified_sweep(options, runner);
}

ExperimentReport ModifiedSweep::report(const ModifiedSweepOptions& options, const ModifiedSweepResult& result,
                                       ResultDirectory& out, std::ostream& log) {
  write_modified_sweep(options, result, out);
  ExperimentReport report;
  log << "unit-modified:γ on random RBMs (W ~ U[-c, c], biases 0), " << options.family.rbms_per_setting
      << " per setting: mean SLEM and median exact energy τ of G, T, T^" << options.mixture_weight
      << " and the best γ\n";
  report.tables.push_back({"summary", modified_sweep_summary_table(options, result)});
  report.tables.back().table.print(log, 4);
  if (!result.trained.empty()) {
    log << "energy τ on trained RBMs, mean over trials\n";
    report.tables.push_back({"trained", modified_sweep_trained_table(options, result)});
    report.tables.back().table.print(log, 4);
  }
  return report;
}

}  // namespace rbmix::experiments
