// The report of experiment pcd-study (pcd_study_experiment.hpp): the summary table, the curves and one plot per
// part, and 000's figures beside what the run measured.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "rbmix/experiments/pcd_study_experiment.hpp"

namespace rbmix::experiments {

Table pcd_study_summary_table(const PcdStudyResult& result) {
  Table table({"part", "algorithm", "operator", "learning_rate", "trials", "final_test_mean", "final_test_sd",
               "best_test_mean", "final_ais_test_mean", "seconds", "monitor_seconds"});
  for (const auto& curve : result.curves)
    table.add_row({to_string(curve.part), curve.algorithm,
                   curve.rule.empty() ? Table::missing() : Table::Cell(curve.rule), curve.learning_rate,
                   static_cast<long long>(curve.trials), curve.final_test_mean, curve.final_test_standard_deviation,
                   curve.best_test_mean,
                   std::isnan(curve.final_ais_test_mean) ? Table::missing() : Table::Cell(curve.final_ais_test_mean),
                   curve.mean.back().seconds, curve.monitor_seconds});
  return table;
}

namespace {

// pcd_study.csv (summary), pcd_study_curves.csv and one SVG per part (test score against update time; the ais part's
// also against updates).
void write_pcd_study(const PcdStudyOptions& options, const PcdStudyResult& result, ResultDirectory& out) {
  Table curves({"part", "algorithm", "operator", "learning_rate", "update", "seconds", "validation", "test"});
  for (const auto& curve : result.curves)
    for (const auto& point : curve.mean)
      curves.add_row({to_string(curve.part), curve.algorithm, curve.rule.empty() ? Table::missing() : Table::Cell(curve.rule),
                      curve.learning_rate, static_cast<long long>(point.update), point.seconds, point.validation,
                      point.test});
  out.write_csv("pcd_study.csv", pcd_study_summary_table(result));
  out.write_csv("pcd_study_curves.csv", curves);
  for (PcdStudyPart part : options.parts) {
    // Against update time (log: the algorithms' costs differ by orders of magnitude, so a linear axis crowds the
    // cheap ones at 0), and for the large RBM against updates too (000 Fig. 2 shows time; updates separate what an
    // algorithm learns per update from what it costs).
    const bool by_updates_too = part == PcdStudyPart::ais;
    for (const bool by_updates : {false, true}) {
      if (by_updates && !by_updates_too) continue;
      std::vector<PlotSeries> series;
      for (const auto& curve : result.curves) {
        if (curve.part != part) continue;
        PlotSeries line;
        line.label = curve.algorithm + (curve.rule.empty() ? "" : " (" + curve.rule + ")");
        for (const auto& point : curve.mean) {
          if (!by_updates && !(point.seconds > 0)) continue;  // the start has no place on the log time axis
          line.x.push_back(by_updates ? static_cast<double>(point.update) : point.seconds);
          line.y.push_back(part == PcdStudyPart::mrf ? point.validation : point.test);
        }
        // A tracked curve's check: one AIS run on its final model, a ring at the curve's end
        // (docs/algorithms/pcd-study.md §9.3).
        if (std::isfinite(curve.final_ais_test_mean) && !line.x.empty()) {
          line.check_x.push_back(line.x.back());
          line.check_y.push_back(curve.final_ais_test_mean);
        }
        series.push_back(line);
      }
      PlotOptions plot;
      const bool checked = part == PcdStudyPart::ais && options.likelihood == PcdStudyLikelihood::trajectory;
      plot.title = "pcd-study: " + to_string(part) +
                   (part == PcdStudyPart::ais ? " (" + to_string(options.likelihood) + " log-likelihood" +
                                                    (checked ? "; rings: AIS of the final model)" : ")")
                                              : "");
      plot.x_label = by_updates ? "updates" : "update time (s)";
      plot.log_x = !by_updates;
      plot.y_label = part == PcdStudyPart::classification ? "test error"
                     : part == PcdStudyPart::mrf          ? "validation log-likelihood"
                                                          : "test log-likelihood";
      if (part == PcdStudyPart::mrf)
        plot.reference_lines.push_back({"-entropy of the training data", -result.mrf_training_entropy});
      out.write_svg("pcd_study_" + to_string(part) + (by_updates ? "_updates" : "") + ".svg", series, plot);
    }
  }
}

}  // namespace

ExperimentReport PcdStudy::report(const PcdStudyOptions& options, const PcdStudyResult& result, ResultDirectory& out,
                                  std::ostream& log) {
  write_pcd_study(options, result, out);
  ExperimentReport report;
  report.tables.push_back({"summary", pcd_study_summary_table(result)});
  report.tables.back().table.print(log, 5);
  log << "000 reports: PCD best given time for the 25- and 500-hidden RBMs (Figs. 1-2) and the classification RBM "
         "(Fig. 3, 1.04 % with longer runs); MRF: PL best -5.35 within seconds, PCD and the exact gradient about "
         "-5.15, training-data entropy 4.78 nats.\n";
  if (std::find(options.parts.begin(), options.parts.end(), PcdStudyPart::mrf) != options.parts.end())
    log << "MRF training-data entropy: " << result.mrf_training_entropy << " nats\n";
  report.record_fields["mrf_training_entropy"] = result.mrf_training_entropy;
  return report;
}

}  // namespace rbmix::experiments
