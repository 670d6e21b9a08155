#include "rbmix/experiments/slem_sweep_experiment.hpp"

#include "rbmix/analysis/slem.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/experiments/exact_number.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix::experiments {

void SlemSweepOptions::validate() const { family.validate(analysis::max_dense_joint_units / 2); }

SlemSweepOptions slem_sweep_options(Scale scale, std::uint64_t seed) {
  SlemSweepOptions options;
  if (scale == Scale::smoke) {
    options.family.sizes = {2, 3};
    options.family.rbms_per_setting = 10;
  }
  options.seed = seed;
  return options;
}

nlohmann::json to_json(const SlemSweepOptions& options) {
  nlohmann::json configuration = {{"source", "003 Fig. 3"},
                                  {"weights", "U[-c, c], biases 0"},
                                  {"slem", "dense eigenvalues of the joint sweep K = K_h K_v"}};
  configuration.update(to_json(options.family));
  return configuration;
}

nlohmann::json to_grid_json(const SlemSweepRbm& rbm) {
  return {{"size", rbm.size},
          {"c", rbm.weight_bound},
          {"index", rbm.index},
          {"slem_gibbs", exact_number(rbm.slem_gibbs)},
          {"slem_flip", exact_number(rbm.slem_flip)}};
}

void from_grid_json(const nlohmann::json& json, SlemSweepRbm& rbm) {
  const JournaledValue journaled(json);
  rbm.size = journaled["size"].integer<int>(0);
  rbm.weight_bound = journaled["c"].integer<int>(0);
  rbm.index = journaled["index"].integer<int>(0);
  rbm.slem_gibbs = journaled["slem_gibbs"].within(0.0, 1.0);
  rbm.slem_flip = journaled["slem_flip"].within(0.0, 1.0);
}

OrPartDone<SlemSweepResult> run_slem_sweep(const SlemSweepOptions& options, const JobRunner& runner) {
  options.validate();
  std::vector<SlemSweepRbm> rbms;
  for (const int size : options.family.sizes)
    for (const int bound : options.family.weight_bounds)
      for (int index = 0; index < options.family.rbms_per_setting; ++index) rbms.push_back({size, bound, index, 0, 0});
  SlemSweepResult result;
  auto analysed = run_jobs(runner, JobPhase{0}, rbms.size(), [&](std::size_t k) {
    SlemSweepRbm job = rbms[k];
    const Rbm rbm = fig3_random_rbm(options.seed, job.size, job.weight_bound, job.index);
    job.slem_gibbs = analysis::dense_slem(analysis::sweep_transition_matrix(rbm, GibbsRule{})).slem;
    job.slem_flip = analysis::dense_slem(analysis::sweep_transition_matrix(rbm, FlipTheStateRule{})).slem;
    return job;
  });
  if (!analysed) return analysed.part_done();
  result.rbms = std::move(analysed).value();
  for (std::size_t k = 0; k < result.rbms.size(); k += static_cast<std::size_t>(options.family.rbms_per_setting)) {
    SlemSweepShare share{
        result.rbms[k].size, result.rbms[k].weight_bound, options.family.rbms_per_setting, 0, 0.0, 0.0};
    for (int index = 0; index < options.family.rbms_per_setting; ++index) {
      const SlemSweepRbm& rbm = result.rbms[k + static_cast<std::size_t>(index)];
      share.flip_better += rbm.slem_flip < rbm.slem_gibbs;
      share.mean_slem_gibbs += rbm.slem_gibbs / options.family.rbms_per_setting;
      share.mean_slem_flip += rbm.slem_flip / options.family.rbms_per_setting;
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

namespace {

// slem_sweep.csv (shares), slem_per_rbm.csv (every RBM) and slem_sweep.svg (shares against c, one line per size).
void write_slem_sweep(const SlemSweepOptions& options, const SlemSweepResult& result, ResultDirectory& out) {
  out.write_csv("slem_sweep.csv", slem_sweep_share_table(result));
  out.write_csv("slem_per_rbm.csv", slem_sweep_rbm_table(result));
  std::vector<PlotSeries> series;
  for (const int size : options.family.sizes) {
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
  out.write_svg("slem_sweep.svg", series, plot);
}

}  // namespace

std::vector<ExperimentOption> SlemSweep::own_options() {
  return {{"--sizes", "m = n values, e.g. 2,3,4 (default: paper 2,3,4; smoke 2,3)"},
          {"--c", "weight bounds, A:B or A,B,C (default 1:10)"},
          {"--count", "RBMs per (size, c) (default: paper 100; smoke 10)"}};
}

SlemSweepOptions SlemSweep::make_options(const ExperimentInputs& inputs) {
  SlemSweepOptions options = slem_sweep_options(inputs.scale, inputs.seed);
  read_family_options(inputs, options.family);
  options.validate();
  return options;
}

nlohmann::json SlemSweep::configuration(const SlemSweepOptions& options) { return to_json(options); }

OrPartDone<SlemSweepResult> SlemSweep::run(const SlemSweepOptions& options, const JobRunner& runner,
                                           std::ostream& log) {
  log << "share of RBMs with SLEM(T) < SLEM(G) (003 Fig. 3), " << options.family.rbms_per_setting
      << " RBMs per setting\n";
  return run_slem_sweep(options, runner);
}

ExperimentReport SlemSweep::report(const SlemSweepOptions& options, const SlemSweepResult& result, ResultDirectory& out,
                                   std::ostream& log) {
  write_slem_sweep(options, result, out);
  ExperimentReport report;
  report.tables.push_back({"share", slem_sweep_share_table(result)});
  report.tables.back().table.print(log, 4);
  return report;
}

}  // namespace rbmix::experiments
