#pragma once
// SvgPlot: line plots written as standalone SVG, enough for the figures the experiments reproduce (learning
// curves, SLEM shares, autocorrelation functions, AIS error against steps) without a plotting dependency.
//
// What the writer promises a reader of the figure: every legend label is shown whole (the canvas grows to fit it,
// long labels wrap at spaces); log axes carry ticks at powers of ten; numbers are printed short (0.1, not
// 0.100000); series are told apart by colour, marker shape and, when asked or when the colours run out, dashes;
// entries without a label draw no legend line.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rbmix {

struct PlotSeries {
  std::string label;  // empty: drawn, but not listed in the legend
  std::vector<double> x;
  std::vector<double> y;
  // Optional band drawn shaded around the line (both empty or both the size of x).
  std::vector<double> lower;
  std::vector<double> upper;
  bool dashed = false;
  // Optional points drawn unjoined, as open rings in the series' colour: an independent check of the line, such as
  // an AIS estimate at the end of a curve tracked by another estimator. Both empty or of one length.
  std::vector<double> check_x{};
  std::vector<double> check_y{};
};

struct PlotReferenceLine {
  std::string label;  // empty: drawn, but not listed in the legend
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
  bool log_y = false;
};

// The axes of an energy autocorrelation plot R(Δt) against the lag, with the zero line drawn for reference.
inline PlotOptions autocorrelation_plot_options(std::string title) {
  return {std::move(title), "lag Δt (sweeps)", "R(Δt)", false, std::nullopt, std::nullopt, {{"", 0.0}}};
}

// Renders the series to SVG text. Throws InputError for series whose x, y (and band) lengths differ, or for
// non-positive values on a log axis. Non-finite points are skipped (a diverged run still plots up to divergence).
std::string render_svg_plot(const std::vector<PlotSeries>& series, const PlotOptions& options);
void write_svg_plot(const std::filesystem::path& path, const std::vector<PlotSeries>& series,
                    const PlotOptions& options);

// The pieces of the plot a caller may want on its own, e.g. to put a number into a label as the axes print it.

// The shortest text that reads back as `value` once rounded to 12 significant digits: 0.1, 2.5e-05, 1e+06, 300
// (the rounding hides the binary noise of k·0.1 and the like, which no plot can show).
std::string format_plot_number(double value);

// About five round tick values (1, 2 or 5 times a power of ten apart) covering [low, high].
std::vector<double> linear_ticks(double low, double high);

// Tick values for a log axis covering [low, high] (both > 0): the powers of ten inside, thinned to at most eight;
// when fewer than two powers fall inside, the 1-2-5 multiples of powers of ten inside; and when even those are
// fewer than two, linear ticks.
std::vector<double> log_ticks(double low, double high);

// The label of a log-axis tick: 10^k written as 10ᵏ for |k| > 3, plainly (0.001 … 1000) otherwise.
std::string log_tick_label(double value);

// Width in pixels that `text` takes at `font_size` in a sans-serif face, estimated from its character count (an
// upper bound for most text: wide capitals are rare in labels).
double estimated_text_width(const std::string& text, double font_size);

// Splits a label into lines of at most `max_characters` characters, breaking after spaces (each line keeps its
// trailing space, so the lines joined give the label back). A word longer than a line stays whole.
std::vector<std::string> wrap_label(const std::string& label, std::size_t max_characters);

}  // namespace rbmix
