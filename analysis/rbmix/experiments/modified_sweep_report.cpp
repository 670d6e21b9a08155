// The report of experiment modified-sweep (modified_sweep_experiment.hpp): the tables over random and trained RBMs,
// their CSV files and the plots of SLEM and τ against γ.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "rbmix/experiments/modified_sweep_experiment.hpp"
#include "rbmix/experiments/sample_statistics.hpp"

namespace rbmix::experiments {
namespace {

// G, T and T^α come first in both operator lists; the γ family follows.
constexpr std::size_t kGibbs = 0, kFlip = 1, kMixture = 2, kFirstShift = 3;
// A γ "beats" G and T only by more than rounding: SLEMs and τ are computed to about 1e-12 relative.
constexpr double kBeatMargin = 1e-9;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Some γ of the family is below both G and T by more than kBeatMargin (relative for τ); NaNs never beat or lose.
bool some_shift_beats(const std::vector<double>& values, bool relative) {
  const double reference = std::fmin(values[kGibbs], values[kFlip]);  // fmin skips a NaN
  if (!std::isfinite(reference)) return false;
  const double bar = relative ? reference * (1.0 - kBeatMargin) : reference - kBeatMargin;
  for (std::size_t k = kFirstShift; k < values.size(); ++k)
    if (values[k] < bar) return true;
  return false;
}

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
  // (docs/algorithms/calibration.md §6.7) first.
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
