#include "rbmix/experiments/coupling_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rbmix/analysis/convergence_bound.hpp"
#include "rbmix/analysis/slem.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/experiments/exact_number.hpp"
#include "rbmix/experiments/random_rbm_family.hpp"
#include "rbmix/jobs/trial_seed.hpp"

namespace rbmix::experiments {
namespace {

constexpr double mixing_epsilon = 0.25;
constexpr std::string_view fig3_family = "fig3";
constexpr double not_available = std::numeric_limits<double>::quiet_NaN();

nlohmann::json to_json(const CouplingOperatorResult& result) {
  return {{"pairs", result.pairs},
          {"met", result.met},
          {"mixing_time", result.mixing_time ? nlohmann::json(*result.mixing_time) : nlohmann::json(nullptr)},
          {"median_meeting", exact_number(result.median_meeting)},
          {"max_meeting", exact_number(result.max_meeting)}};
}

// A bound exists only when every pair met; the meeting times are those of the pairs that met (NaN if none did).
void from_json(const JournaledValue& json, CouplingOperatorResult& result) {
  result.pairs = json["pairs"].integer<Eigen::Index>(0);
  result.met = json["met"].integer<Eigen::Index>(0);
  json["met"].require_that(result.met <= result.pairs, "more pairs met than were coupled");
  const JournaledValue mixing_time = json["mixing_time"];
  result.mixing_time =
      mixing_time.is_null() ? std::nullopt : std::optional<Eigen::Index>(mixing_time.integer<Eigen::Index>(0));
  mixing_time.require_that(mixing_time.is_null() || result.met == result.pairs, "a bound although not every pair met");
  result.median_meeting = json["median_meeting"].finite_or_missing();
  result.max_meeting = json["max_meeting"].finite_or_missing();
  json["max_meeting"].require_that(std::isnan(result.max_meeting) == (result.met == 0),
                                   "a meeting time is missing exactly when no pair met");
}

// One operator's coupled pairs on `rbm` from `start`, summarised.
CouplingOperatorResult couple(const Rbm& rbm, const UnitRule& rule, const analysis::StartDistribution& start,
                              const CouplingOptions& options, std::uint64_t seed) {
  analysis::ConvergenceBoundOptions bound_options;
  bound_options.rule = rule;
  bound_options.lag = options.lag;
  bound_options.pairs = options.pairs;
  bound_options.max_sweeps = options.max_sweeps;
  bound_options.seed = seed;
  const analysis::ConvergenceBound bound = analysis::convergence_bound(rbm, start, bound_options);
  CouplingOperatorResult result{options.pairs, bound.met, bound.mixing_time(mixing_epsilon), not_available,
                                not_available};
  std::vector<double> times;
  for (const auto& time : bound.meeting_times)
    if (time) times.push_back(static_cast<double>(*time));
  if (!times.empty()) {
    std::sort(times.begin(), times.end());
    const std::size_t middle = times.size() / 2;
    result.median_meeting = times.size() % 2 == 1 ? times[middle] : 0.5 * (times[middle - 1] + times[middle]);
    result.max_meeting = times.back();
  }
  return result;
}

// The jobs: every fig3 RBM, then every (Table 2 setting, trial).
struct CouplingJob {
  bool fig3 = true;
  int size = 0, weight_bound = 0, index = 0;
  std::size_t setting = 0;
};

std::vector<CouplingJob> coupling_jobs(const CouplingOptions& options) {
  std::vector<CouplingJob> jobs;
  for (const int size : options.family.sizes)
    for (const int bound : options.family.weight_bounds)
      for (int index = 0; index < options.family.rbms_per_setting; ++index) jobs.push_back({true, size, bound, index, 0});
  for (std::size_t setting = 0; setting < options.trained.settings.size(); ++setting)
    for (int trial = 0; trial < options.trained.settings[setting].trials; ++trial)
      jobs.push_back({false, 0, 0, trial, setting});
  return jobs;
}

CouplingModelResult run_job(const CouplingOptions& options, const CouplingJob& job, std::size_t job_index,
                            const JobProgress& progress) {
  const std::uint64_t chain_seed = purpose_seed(options.seed, job_index, SeedPurpose::sampling);
  CouplingModelResult result;
  result.size = job.size;
  result.weight_bound = job.weight_bound;
  result.index = job.index;
  if (job.fig3) {
    result.family = fig3_family;
    const Rbm rbm = fig3_random_rbm(options.seed, job.size, job.weight_bound, job.index);
    result.slem_gibbs = analysis::dense_slem(analysis::sweep_transition_matrix(rbm, GibbsRule{})).slem;
    result.slem_flip = analysis::dense_slem(analysis::sweep_transition_matrix(rbm, FlipTheStateRule{})).slem;
    const analysis::StartDistribution start = analysis::parse_start_distribution("uniform");
    result.gibbs = couple(rbm, GibbsRule{}, start, options, chain_seed);
    result.flip = couple(rbm, FlipTheStateRule{}, start, options, chain_seed);
    return result;
  }
  // As autocorr trains them (autocorr_experiment.cpp): the same seeds give the same RBMs.
  const Table2Setting& setting = options.trained.settings[job.setting];
  result.family = setting.name;
  result.slem_gibbs = result.slem_flip = not_available;
  const std::uint64_t training_job = 1000 * setting.number + static_cast<std::uint64_t>(job.index);
  const Rbm rbm = train_table2_rbm(setting, options.trained.learning_rate, options.trained.initialisation,
                                   trial_seed(options.seed, training_job), progress);
  const analysis::StartDistribution start{analysis::StartDistribution::Kind::data, setting.data, setting.name};
  result.gibbs = couple(rbm, GibbsRule{}, start, options, chain_seed);
  result.flip = couple(rbm, FlipTheStateRule{}, start, options, chain_seed);
  return result;
}

}  // namespace

void CouplingOptions::validate() const {
  family.validate(analysis::max_dense_joint_units / 2);
  analysis::ConvergenceBoundOptions bound_options;
  bound_options.lag = lag;
  bound_options.pairs = pairs;
  bound_options.max_sweeps = max_sweeps;
  bound_options.validate();
  if (!trained.settings.empty()) trained.validate();
}

CouplingOptions coupling_options(Scale scale, std::uint64_t seed, const std::filesystem::path& mnist,
                                 const std::vector<std::string>& trained_settings, int trials) {
  CouplingOptions options;
  options.seed = seed;
  AutocorrOverrides overrides;
  if (scale == Scale::smoke) {
    options.family = {{2, 3}, {1, 4, 7, 10}, 3};
    options.pairs = 32;
    options.max_sweeps = 2000;
    overrides.trials = 1;
    overrides.updates = 200;
  }
  if (trials > 0) overrides.trials = trials;
  options.trained = autocorr_options(scale, seed, mnist, overrides);
  if (trained_settings.empty()) return options;
  std::vector<Table2Setting> chosen;
  if (trained_settings != std::vector<std::string>{"none"})
    for (const std::string& name : trained_settings) {
      const auto& all = options.trained.settings;
      const auto found = std::find_if(all.begin(), all.end(), [&](const Table2Setting& s) { return s.name == name; });
      require(found != all.end(), "--settings: no setting '" + name + "' (MNIST settings need --mnist)");
      chosen.push_back(*found);
    }
  options.trained.settings = chosen;
  return options;
}

nlohmann::json to_json(const CouplingOptions& options) {
  nlohmann::json settings = nlohmann::json::array();
  for (const auto& setting : options.trained.settings) settings.push_back(to_json(setting));
  return {{"source", "003 Fig. 3 and Table 2"},
          {"sizes", options.family.sizes},
          {"c", options.family.weight_bounds},
          {"rbms_per_setting", options.family.rbms_per_setting},
          {"lag", options.lag},
          {"pairs", options.pairs},
          {"max_sweeps", options.max_sweeps},
          {"maximal_within", analysis::default_maximal_coupling_distance},
          {"fig3_start", "uniform"},
          {"trained_start", "data rows, hidden from p(h | v)"},
          {"trained_settings", settings},
          {"learning_rate", options.trained.learning_rate}};
}

nlohmann::json to_grid_json(const CouplingModelResult& result) {
  return {{"family", result.family},
          {"size", result.size},
          {"c", result.weight_bound},
          {"index", result.index},
          {"slem_gibbs", exact_number(result.slem_gibbs)},
          {"slem_flip", exact_number(result.slem_flip)},
          {"gibbs", to_json(result.gibbs)},
          {"flip", to_json(result.flip)}};
}

void from_grid_json(const nlohmann::json& json, CouplingModelResult& result) {
  const JournaledValue journaled(json);
  result.family = journaled["family"].text();
  result.size = journaled["size"].integer<int>(0);
  result.weight_bound = journaled["c"].integer<int>(0);
  result.index = journaled["index"].integer<int>(0);
  // A SLEM lies in [0, 1]; NaN where the family has none (Table 2's trained models).
  result.slem_gibbs = journaled["slem_gibbs"].within(0.0, 1.0, JournaledValue::Missing::allowed);
  result.slem_flip = journaled["slem_flip"].within(0.0, 1.0, JournaledValue::Missing::allowed);
  from_json(journaled["gibbs"], result.gibbs);
  from_json(journaled["flip"], result.flip);
}

OrPartDone<CouplingResult> run_coupling(const CouplingOptions& options, const JobRunner& runner) {
  options.validate();
  const std::vector<CouplingJob> jobs = coupling_jobs(options);
  CouplingResult result;
  auto models = run_jobs(runner, JobPhase{0}, jobs.size(), [&](std::size_t k, const JobProgress& progress) {
    return run_job(options, jobs[k], k, progress);
  });
  if (!models) return models.part_done();
  result.models = std::move(models).value();
  return result;
}

Table coupling_fig3_table(const CouplingResult& result) {
  Table table({"size", "c", "rbms", "share_bound_flip_below_gibbs", "share_slem_flip_below_gibbs", "rbms_not_all_met"});
  for (std::size_t k = 0; k < result.models.size();) {
    const CouplingModelResult& first = result.models[k];
    if (first.family != fig3_family) break;
    int rbms = 0, both_known = 0, bound_flip_below = 0, slem_flip_below = 0, not_all_met = 0;
    for (; k < result.models.size() && result.models[k].family == fig3_family && result.models[k].size == first.size &&
           result.models[k].weight_bound == first.weight_bound;
         ++k) {
      const CouplingModelResult& model = result.models[k];
      ++rbms;
      slem_flip_below += model.slem_flip < model.slem_gibbs;
      if (model.gibbs.mixing_time && model.flip.mixing_time) {
        ++both_known;
        bound_flip_below += *model.flip.mixing_time < *model.gibbs.mixing_time;
      } else {
        ++not_all_met;
      }
    }
    table.add_row({static_cast<long long>(first.size), static_cast<long long>(first.weight_bound),
                   static_cast<long long>(rbms),
                   both_known > 0 ? Table::Cell(static_cast<double>(bound_flip_below) / both_known) : Table::missing(),
                   static_cast<double>(slem_flip_below) / rbms, static_cast<long long>(not_all_met)});
  }
  return table;
}

Table coupling_trained_table(const CouplingResult& result, Eigen::Index max_sweeps) {
  Table table(
      {"setting", "trial", "operator", "pairs", "met", "within_sweeps", "median_meeting", "max_meeting", "tmix_bound"});
  for (const CouplingModelResult& model : result.models) {
    if (model.family == fig3_family) continue;
    for (const auto& [name, coupled] : {std::pair{"gibbs", &model.gibbs}, std::pair{"flip", &model.flip}})
      table.add_row(
          {model.family, static_cast<long long>(model.index), std::string(name), static_cast<long long>(coupled->pairs),
           static_cast<long long>(coupled->met), static_cast<long long>(max_sweeps), coupled->median_meeting,
           coupled->max_meeting,
           coupled->mixing_time ? Table::Cell(static_cast<long long>(*coupled->mixing_time)) : Table::missing()});
  }
  return table;
}

std::vector<ExperimentOption> Coupling::own_options() {
  return {{"--sizes", "m = n of the random RBMs, e.g. 2,3,4 (default: paper 2,3,4; smoke 2,3)"},
          {"--c", "weight bounds of the random RBMs (default: paper 1..10; smoke 1,4,7,10)"},
          {"--count", "random RBMs per (size, c) (default: paper 20; smoke 3)"},
          {"--lag", "the lag L (default 5)"},
          {"--pairs", "coupled pairs per model and operator (default: paper 256; smoke 32)"},
          {"--max-sweeps", "sweeps before unmet pairs are given up (default: paper 100000; smoke 2000)"},
          {"--settings", "Table 2 settings to bound, e.g. bas4x4,modes_p0.1, or none (default: all)"},
          {"--trials", "trained RBMs per Table 2 setting (default: paper as autocorr, 25; smoke 1)"}};
}

CouplingOptions Coupling::make_options(const ExperimentInputs& inputs) {
  CouplingOptions options = coupling_options(inputs.scale, inputs.seed, inputs.mnist,
                                             inputs.words("--settings").value_or(std::vector<std::string>{}),
                                             static_cast<int>(inputs.integer("--trials", 1).value_or(0)));
  read_family_options(inputs, options.family);
  if (const auto lag = inputs.integer("--lag", 1)) options.lag = *lag;
  if (const auto pairs = inputs.integer("--pairs", 2)) options.pairs = *pairs;
  if (const auto sweeps = inputs.integer("--max-sweeps", 2)) options.max_sweeps = *sweeps;
  options.validate();
  return options;
}

nlohmann::json Coupling::configuration(const CouplingOptions& options) { return to_json(options); }

OrPartDone<CouplingResult> Coupling::run(const CouplingOptions& options, const JobRunner& runner, std::ostream& log) {
  log << "coupling bounds of G and T (L = " << options.lag << ", " << options.pairs << " pairs, at most "
      << options.max_sweeps << " sweeps) on 003 Fig. 3's random RBMs and " << options.trained.settings.size()
      << " Table 2 setting(s)\n";
  return run_coupling(options, runner);
}

ExperimentReport Coupling::report(const CouplingOptions& options, const CouplingResult& result, ResultDirectory& out,
                                  std::ostream& log) {
  ExperimentReport report;
  report.tables.push_back({"random", coupling_fig3_table(result)});
  report.tables.push_back({"trained", coupling_trained_table(result, options.max_sweeps)});
  out.write_csv("coupling_random.csv", report.tables[0].table);
  out.write_csv("coupling_trained.csv", report.tables[1].table);
  log << "(a) 003 Fig. 3's random RBMs: share where T's bound on t_mix(1/4) is below G's, beside the share where "
         "SLEM(T) < SLEM(G)\n";
  report.tables[0].table.print(log, 4);
  log << "(b) 003 Table 2's trained RBMs from data starts (pairs not met within the budget are counted, not "
         "bounded)\n";
  report.tables[1].table.print(log, 4);
  return report;
}

}  // namespace rbmix::experiments
