#include "rbmix/report/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "rbmix/core/error.hpp"
#include "rbmix/io/output_file.hpp"

namespace rbmix {
namespace {

constexpr double kWidth = 760, kHeight = 480;
constexpr double kLeft = 80, kRight = 200, kTop = 40, kBottom = 60;  // margins; legend sits on the right
constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", value);
  return buffer;
}

// About five round tick values covering [low, high].
std::vector<double> ticks(double low, double high) {
  const double span = high - low;
  const double raw = span / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double factor : {1.0, 2.0, 5.0, 10.0})
    if (raw <= factor * magnitude) {
      step = factor * magnitude;
      break;
    }
  std::vector<double> out;
  for (double t = std::ceil(low / step) * step; t <= high + 1e-9 * span; t += step)
    out.push_back(std::abs(t) < 1e-12 * span ? 0.0 : t);
  return out;
}

}  // namespace

std::string render_svg_plot(const std::vector<PlotSeries>& series, const PlotOptions& options) {
  double x_low = std::numeric_limits<double>::infinity(), x_high = -x_low;
  double y_low = x_low, y_high = -x_low;
  for (const auto& s : series) {
    require(s.x.size() == s.y.size(), "plot series '" + s.label + "': x and y differ in length");
    require((s.lower.empty() && s.upper.empty()) || (s.lower.size() == s.x.size() && s.upper.size() == s.x.size()),
            "plot series '" + s.label + "': band lengths differ from x");
    for (std::size_t k = 0; k < s.x.size(); ++k) {
      if (!std::isfinite(s.x[k]) || !std::isfinite(s.y[k])) continue;
      require(!options.log_x || s.x[k] > 0, "plot series '" + s.label + "': non-positive x on a log axis");
      const double x = options.log_x ? std::log10(s.x[k]) : s.x[k];
      x_low = std::min(x_low, x), x_high = std::max(x_high, x);
      y_low = std::min(y_low, s.lower.empty() ? s.y[k] : std::min(s.y[k], s.lower[k]));
      y_high = std::max(y_high, s.upper.empty() ? s.y[k] : std::max(s.y[k], s.upper[k]));
    }
  }
  for (const auto& line : options.reference_lines) y_low = std::min(y_low, line.y), y_high = std::max(y_high, line.y);
  if (!std::isfinite(x_low)) x_low = 0, x_high = 1, y_low = 0, y_high = 1;
  if (options.y_min) y_low = *options.y_min;
  if (options.y_max) y_high = *options.y_max;
  if (x_high <= x_low) x_high = x_low + 1;
  if (y_high <= y_low) y_high = y_low + 1;
  const double y_pad = 0.04 * (y_high - y_low);
  y_low -= y_pad, y_high += y_pad;

  const double plot_width = kWidth - kLeft - kRight, plot_height = kHeight - kTop - kBottom;
  const auto px = [&](double x) { return kLeft + (x - x_low) / (x_high - x_low) * plot_width; };
  const auto py = [&](double y) { return kTop + (y_high - y) / (y_high - y_low) * plot_height; };
  const auto data_x = [&](double x) { return options.log_x ? std::log10(x) : x; };

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << kLeft + plot_width / 2 << "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">"
      << escape(options.title) << "</text>\n";
  svg << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << plot_width << "\" height=\"" << plot_height
      << "\" fill=\"none\" stroke=\"black\"/>\n";
  for (double t : ticks(x_low, x_high)) {
    const std::string label = options.log_x ? number(std::pow(10.0, t)) : number(t);
    svg << "<line x1=\"" << px(t) << "\" x2=\"" << px(t) << "\" y1=\"" << kTop + plot_height << "\" y2=\""
        << kTop + plot_height + 5 << "\" stroke=\"black\"/><text x=\"" << px(t) << "\" y=\"" << kTop + plot_height + 18
        << "\" text-anchor=\"middle\">" << label << "</text>\n";
  }
  for (double t : ticks(y_low, y_high)) {
    svg << "<line x1=\"" << kLeft - 5 << "\" x2=\"" << kLeft + plot_width << "\" y1=\"" << py(t) << "\" y2=\"" << py(t)
        << "\" stroke=\"#e0e0e0\"/><text x=\"" << kLeft - 8 << "\" y=\"" << py(t) + 4 << "\" text-anchor=\"end\">"
        << number(t) << "</text>\n";
  }
  svg << "<text x=\"" << kLeft + plot_width / 2 << "\" y=\"" << kHeight - 15 << "\" text-anchor=\"middle\">"
      << escape(options.x_label) << (options.log_x ? " (log scale)" : "") << "</text>\n";
  svg << "<text transform=\"translate(18," << kTop + plot_height / 2 << ") rotate(-90)\" text-anchor=\"middle\">"
      << escape(options.y_label) << "</text>\n";

  double legend_y = kTop + 10;
  const double legend_x = kLeft + plot_width + 15;
  for (const auto& line : options.reference_lines) {
    svg << "<line x1=\"" << kLeft << "\" x2=\"" << kLeft + plot_width << "\" y1=\"" << py(line.y) << "\" y2=\""
        << py(line.y) << "\" stroke=\"black\" stroke-dasharray=\"2,3\"/>\n";
    svg << "<line x1=\"" << legend_x << "\" x2=\"" << legend_x + 20 << "\" y1=\"" << legend_y << "\" y2=\"" << legend_y
        << "\" stroke=\"black\" stroke-dasharray=\"2,3\"/><text x=\"" << legend_x + 26 << "\" y=\"" << legend_y + 4
        << "\">" << escape(line.label) << "</text>\n";
    legend_y += 18;
  }
  for (std::size_t s = 0; s < series.size(); ++s) {
    const auto& current = series[s];
    const char* colour = kColours[s % std::size(kColours)];
    if (!current.lower.empty()) {
      std::ostringstream band;
      for (std::size_t k = 0; k < current.x.size(); ++k)
        if (std::isfinite(current.lower[k]) && std::isfinite(current.x[k]))
          band << px(data_x(current.x[k])) << ',' << py(std::max(current.lower[k], y_low)) << ' ';
      for (std::size_t k = current.x.size(); k-- > 0;)
        if (std::isfinite(current.upper[k]) && std::isfinite(current.x[k]))
          band << px(data_x(current.x[k])) << ',' << py(std::min(current.upper[k], y_high)) << ' ';
      svg << "<polygon points=\"" << band.str() << "\" fill=\"" << colour
          << "\" fill-opacity=\"0.15\" stroke=\"none\"/>\n";
    }
    std::ostringstream points;
    for (std::size_t k = 0; k < current.x.size(); ++k)
      if (std::isfinite(current.x[k]) && std::isfinite(current.y[k]))
        points << px(data_x(current.x[k])) << ',' << py(std::clamp(current.y[k], y_low, y_high)) << ' ';
    svg << "<polyline points=\"" << points.str() << "\" fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"1.6\""
        << (current.dashed ? " stroke-dasharray=\"6,3\"" : "") << "/>\n";
    if (current.x.size() <= 30)
      for (std::size_t k = 0; k < current.x.size(); ++k)
        if (std::isfinite(current.x[k]) && std::isfinite(current.y[k]))
          svg << "<circle cx=\"" << px(data_x(current.x[k])) << "\" cy=\""
              << py(std::clamp(current.y[k], y_low, y_high)) << "\" r=\"2.5\" fill=\"" << colour << "\"/>\n";
    svg << "<line x1=\"" << legend_x << "\" x2=\"" << legend_x + 20 << "\" y1=\"" << legend_y << "\" y2=\"" << legend_y
        << "\" stroke=\"" << colour << "\" stroke-width=\"2\"" << (current.dashed ? " stroke-dasharray=\"6,3\"" : "")
        << "/><text x=\"" << legend_x + 26 << "\" y=\"" << legend_y + 4 << "\">" << escape(current.label)
        << "</text>\n";
    legend_y += 18;
  }
  svg << "</svg>\n";
  return svg.str();
}

void write_svg_plot(const std::filesystem::path& path, const std::vector<PlotSeries>& series,
                    const PlotOptions& options) {
  write_output_file(path, render_svg_plot(series, options));
}

}  // namespace rbmix
