// The report of experiment samplers (samplers_experiment.hpp): the tables, 001's claims against the run, the ISL
// plots and the sample pictures.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "rbmix/experiments/samplers_experiment.hpp"
#include "rbmix/report/png_image.hpp"

namespace rbmix::experiments {
namespace {

// The test ISL of `curve` at exactly N samples; NaN when N is not one of its points.
double isl_at(const std::vector<IslPoint>& curve, Eigen::Index samples) {
  for (const IslPoint& point : curve)
    if (point.samples == samples) return point.test;
  return std::nan("");
}

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

// The powers of ten up to N: the table's columns.
std::vector<Eigen::Index> table_counts(Eigen::Index samples) {
  std::vector<Eigen::Index> counts;
  for (Eigen::Index count = 10; count <= samples; count *= 10) counts.push_back(count);
  return counts;
}

}  // namespace

Table samplers_table(const SamplersOptions& options, const SamplersResult& result) {
  const std::vector<Eigen::Index> counts = table_counts(options.samples);
  std::vector<std::string> columns{"data", "sampler", "operator", "fast_lr", "fast_decay", "k"};
  for (Eigen::Index count : counts) columns.push_back("isl_at_" + std::to_string(count));
  for (const std::string column : {"isl_final", "samples_final", "fixed_point_cap_hits"}) columns.push_back(column);
  Table table(columns);
  for (std::size_t set = 0; set < options.data_sets.size(); ++set) {
    const SamplersDataSetResult& data = result.data_sets[set];
    for (std::size_t sampler = 0; sampler < options.samplers.size(); ++sampler) {
      const SamplerRun& run = result.runs[data.chosen_runs[sampler]];
      const SamplerCandidates& candidates = options.samplers[sampler];
      const SamplerGridPoint& point = candidates.grid[run.setting];
      const bool zero_temperature = is_zero_temperature(candidates.kind);
      std::vector<Table::Cell> row{
          options.data_sets[set].name,
          candidates.label,
          zero_temperature ? std::string("fixed point") : to_string(candidates.rule),
          point.fast_learning_rate,
          point.fast_decay,
          zero_temperature ? Table::missing() : Table::Cell(static_cast<long long>(point.sweeps))};
      for (Eigen::Index count : counts) row.emplace_back(isl_at(run.curve, count));
      row.emplace_back(run.curve.back().test);
      row.emplace_back(static_cast<long long>(run.curve.back().samples));
      row.emplace_back(static_cast<long long>(run.fixed_points.cap_hits));
      table.add_row(row);
    }
    std::vector<Table::Cell> row{options.data_sets[set].name,
                                 std::string("training set"),
                                 Table::missing(),
                                 Table::missing(),
                                 Table::missing(),
                                 Table::missing()};
    for (Eigen::Index count : counts) row.emplace_back(isl_at(data.reference, count));
    row.emplace_back(data.reference.back().test);
    row.emplace_back(static_cast<long long>(data.reference.back().samples));
    row.emplace_back(0LL);
    table.add_row(row);
  }
  return table;
}

Table samplers_claims_table(const SamplersOptions& options, const SamplersResult& result) {
  Table table({"data", "claim_001", "measured", "holds"});
  const auto sampler_index = [&](const std::string& label) -> std::optional<std::size_t> {
    for (std::size_t k = 0; k < options.samplers.size(); ++k)
      if (options.samplers[k].label == label) return k;
    return std::nullopt;
  };
  const auto gibbs = sampler_index("gibbs"), fpcd = sampler_index("rates-fpcd"),
             herding = sampler_index("rates-herding"), penalization = sampler_index("sp");
  const Eigen::Index early = std::min<Eigen::Index>(100, options.samples);
  for (std::size_t set = 0; set < options.data_sets.size(); ++set) {
    const std::string& name = options.data_sets[set].name;
    const SamplersDataSetResult& data = result.data_sets[set];
    const auto chosen = [&](std::size_t sampler) -> const SamplerRun& {
      return result.runs[data.chosen_runs[sampler]];
    };
    const auto final_isl = [&](std::size_t sampler) { return chosen(sampler).curve.back().test; };
    const auto add = [&](const std::string& claim, const std::string& measured, bool holds) {
      table.add_row({name, claim, measured, holds});
    };
    if (gibbs && fpcd && herding) {
      add("rates-FPCD and rates-herding far ahead of Gibbs at equal N",
          "at N=" + std::to_string(options.samples) + ": rates-fpcd " + number_text(final_isl(*fpcd)) +
              ", rates-herding " + number_text(final_isl(*herding)) + ", gibbs " + number_text(final_isl(*gibbs)),
          final_isl(*fpcd) > final_isl(*gibbs) && final_isl(*herding) > final_isl(*gibbs));
      const double fpcd_early = isl_at(chosen(*fpcd).curve, early);
      add("100 rates-FPCD samples beat Gibbs's longest run (MNIST: 200 000 Gibbs samples)",
          "rates-fpcd at N=" + std::to_string(early) + " " + number_text(fpcd_early) +
              ", gibbs at N=" + std::to_string(options.samples) + " " + number_text(final_isl(*gibbs)),
          fpcd_early > final_isl(*gibbs));
      const double herding_early = isl_at(chosen(*herding).curve, early);
      add("rates-herding rises fastest at first; rates-FPCD better in the long run",
          "at N=" + std::to_string(early) + ": rates-herding " + number_text(herding_early) + ", rates-fpcd " +
              number_text(fpcd_early) + "; at N=" + std::to_string(options.samples) + ": rates-herding " +
              number_text(final_isl(*herding)) + ", rates-fpcd " + number_text(final_isl(*fpcd)),
          herding_early >= fpcd_early && final_isl(*fpcd) >= final_isl(*herding));
      const double fpcd_rate = options.samplers[*fpcd].grid[chosen(*fpcd).setting].fast_learning_rate;
      const double herding_rate = options.samplers[*herding].grid[chosen(*herding).setting].fast_learning_rate;
      add("best eps_F of rates-FPCD 10-100x smaller than rates-herding's",
          "rates-fpcd " + number_text(fpcd_rate) + ", rates-herding " + number_text(herding_rate) + " (ratio " +
              number_text(herding_rate / fpcd_rate) + ")",
          herding_rate >= 10.0 * fpcd_rate && herding_rate <= 100.0 * fpcd_rate);
    }
    if (fpcd) {
      // The best setting with α = 1 against the best with α = 0.95, by the tuning criterion (validation ISL at N).
      std::optional<std::size_t> free_run, decayed_run;
      for (std::size_t index = 0; index < result.runs.size(); ++index) {
        const SamplerRun& run = result.runs[index];
        if (run.data_set != set || run.sampler != *fpcd) continue;
        const double decay = options.samplers[*fpcd].grid[run.setting].fast_decay;
        if (decay != 1.0 && decay != 0.95) continue;
        std::optional<std::size_t>& best = decay == 1.0 ? free_run : decayed_run;
        if (!best || final_validation(run) > final_validation(result.runs[*best])) best = index;
      }
      if (free_run && decayed_run)
        add("rates-FPCD: alpha = 1 beats alpha = 0.95",
            "best test ISL at N=" + std::to_string(options.samples) + ": alpha=1 " +
                number_text(result.runs[*free_run].curve.back().test) + ", alpha=0.95 " +
                number_text(result.runs[*decayed_run].curve.back().test),
            final_validation(result.runs[*free_run]) > final_validation(result.runs[*decayed_run]));
      add("rates-FPCD's ISL exceeds the training set's (USPS: -78.5 vs -80.0)",
          "rates-fpcd " + number_text(final_isl(*fpcd)) + " (N=" + std::to_string(options.samples) +
              "), training set " + number_text(data.reference.back().test) +
              " (N=" + std::to_string(data.reference.back().samples) + ")",
          final_isl(*fpcd) > data.reference.back().test);
    }
    if (gibbs && fpcd && herding && penalization)
      add("SP beats Gibbs but trails the rates samplers",
          "at N=" + std::to_string(options.samples) + ": sp " + number_text(final_isl(*penalization)) + ", gibbs " +
              number_text(final_isl(*gibbs)) + ", rates samplers " + number_text(final_isl(*fpcd)) + " / " +
              number_text(final_isl(*herding)),
          final_isl(*penalization) > final_isl(*gibbs) &&
              final_isl(*penalization) < std::min(final_isl(*fpcd), final_isl(*herding)));
  }
  return table;
}

void write_samplers(const SamplersOptions& options, const SamplersResult& result, ResultDirectory& out) {
  out.write_csv("samplers.csv", samplers_table(options, result));
  out.write_csv("samplers_claims.csv", samplers_claims_table(options, result));

  Table models({"data", "hidden", "learning_rate", "diverged", "selection_validation_isl", "chosen"});
  for (std::size_t index = 0; index < result.models.size(); ++index) {
    const SamplersModel& model = result.models[index];
    models.add_row({options.data_sets[model.data_set].name, static_cast<long long>(model.hidden), model.learning_rate,
                    model.diverged, model.selection_isl,
                    result.data_sets[model.data_set].chosen_model == index});
  }
  out.write_csv("samplers_models.csv", models);

  Table tuning({"data", "sampler", "fast_lr", "fast_decay", "k", "validation_isl", "test_isl", "samples",
                "fixed_point_searches", "fixed_point_cap_hits", "mean_activity", "chosen"});
  for (std::size_t index = 0; index < result.runs.size(); ++index) {
    const SamplerRun& run = result.runs[index];
    const SamplerGridPoint& point = options.samplers[run.sampler].grid[run.setting];
    const auto& chosen = result.data_sets[run.data_set].chosen_runs;
    tuning.add_row({options.data_sets[run.data_set].name, options.samplers[run.sampler].label, point.fast_learning_rate,
                    point.fast_decay, static_cast<long long>(point.sweeps), run.curve.back().validation,
                    run.curve.back().test, static_cast<long long>(run.curve.back().samples),
                    static_cast<long long>(run.fixed_points.searches),
                    static_cast<long long>(run.fixed_points.cap_hits), run.mean_activity,
                    std::find(chosen.begin(), chosen.end(), index) != chosen.end()});
  }
  out.write_csv("samplers_tuning.csv", tuning);

  Table curves({"data", "sampler", "samples", "beta", "validation_isl", "test_isl"});
  for (std::size_t set = 0; set < options.data_sets.size(); ++set) {
    const SamplersDataSetResult& data = result.data_sets[set];
    const std::string& name = options.data_sets[set].name;
    std::vector<PlotSeries> series;
    const auto add_curve = [&](const std::string& label, const std::vector<IslPoint>& curve, bool dashed) {
      PlotSeries line;
      line.label = label;
      line.dashed = dashed;
      for (const IslPoint& point : curve) {
        curves.add_row({name, label, static_cast<long long>(point.samples), point.beta, point.validation, point.test});
        line.x.push_back(static_cast<double>(point.samples));
        line.y.push_back(point.test);
      }
      series.push_back(line);
    };
    for (std::size_t sampler = 0; sampler < options.samplers.size(); ++sampler)
      add_curve(options.samplers[sampler].label, result.runs[data.chosen_runs[sampler]].curve, false);
    add_curve("training set", data.reference, true);
    PlotOptions plot;
    plot.title = "ISL on " + name + " (" + std::to_string(options.data_sets[set].test.rows()) + " test rows)";
    plot.x_label = "number of samples N";
    plot.y_label = "ISL (mean test log-density)";
    plot.log_x = true;
    plot.reference_lines.push_back({"whole training set", data.reference.back().test});
    out.write_svg("isl_" + name + ".svg", series, plot);
  }
  out.write_csv("samplers_curves.csv", curves);

  if (options.picture_samples == 0) return;
  for (std::size_t set = 0; set < options.data_sets.size(); ++set) {
    const SamplersDataSet& data = options.data_sets[set];
    const Eigen::Index training_rows = std::min(options.picture_samples, data.train.rows());
    out.write_png("training_" + data.name + ".png",
                  tile_images(data.train.topRows(training_rows).cast<float>(), data.image_height, data.image_width,
                              {options.picture_columns}),
                  {{"Description", "the first " + std::to_string(training_rows) + " training rows of " + data.name +
                                       " (binary), one per tile"}});
    for (std::size_t sampler = 0; sampler < options.samplers.size(); ++sampler) {
      const MatrixF grey = picture_samples(result.runs.at(result.data_sets[set].chosen_runs[sampler]), data.train.cols());
      out.write_png("samples_" + data.name + "_" + options.samplers[sampler].label + ".png",
                    tile_images(grey, data.image_height, data.image_width, {options.picture_columns}),
                    {{"Description", options.samplers[sampler].label + " samples in emission order, one per tile: " +
                                         grey_sample_meaning(options.samplers[sampler].kind)}});
    }
  }
}

ExperimentReport Samplers::report(const SamplersOptions& options, const SamplersResult& result, ResultDirectory& out,
                                  std::ostream& log) {
  write_samplers(options, result, out);
  for (const auto& model : result.models)
    if (result.data_sets[model.data_set].chosen_model == static_cast<std::size_t>(&model - result.models.data()))
      log << options.data_sets[model.data_set].name << ": model " << model.hidden << " hidden, lr "
          << model.learning_rate << " (validation ISL of Gibbs samples " << model.selection_isl << ")\n";
  ExperimentReport report;
  report.tables.push_back({"samplers", samplers_table(options, result)});
  report.tables.back().table.print(log, 5);
  log << "\n001's claims against this run:\n";
  report.tables.push_back({"claims", samplers_claims_table(options, result)});
  report.tables.back().table.print(log, 5);
  return report;
}

}  // namespace rbmix::experiments
