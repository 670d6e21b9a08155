#pragma once
// SvgPlot: line plots written as standalone SVG, enough for the figures the experiments reproduce (learning
// curves, SLEM shares, autocorrelation functions, AIS error against steps) without a plotting dependency.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rbmix {

struct PlotSeries {
  std::string label;
  std::vector<double> x;
  std::vector<double> y;
  // Optional band drawn shaded around the line (both empty or both the size of x).
  std::vector<double> lower;
  std::vector<double> upper;
  bool dashed = false;
};

struct PlotReferenceLine {
  std::string label;
  double y;
};

struct PlotOptions {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_x = false;
  std::optional<double> y_min;  // axis range; derived from the data when absent
  std::optional<double> y_max;
  std::vector<PlotReferenceLine> reference_lines;  // horizontal dashed lines, e.g. the best possible log-likelihood
};

// The axes of an energy autocorrelation plot R(Δt) against the lag, with the zero line drawn for reference.
inline PlotOptions autocorrelation_plot_options(std::string title) {
  return {std::move(title), "lag Δt (sweeps)", "R(Δt)", false, std::nullopt, std::nullopt, {{"", 0.0}}};
}

// Renders the series to SVG text. Throws InputError for series whose x, y (and band) lengths differ, or for
// non-positive x on a log axis. Non-finite points are skipped (a diverged run still plots up to divergence).
std::string render_svg_plot(const std::vector<PlotSeries>& series, const PlotOptions& options);
void write_svg_plot(const std::filesystem::path& path, const std::vector<PlotSeries>& series,
                    const PlotOptions& options);

}  // namespace rbmix
