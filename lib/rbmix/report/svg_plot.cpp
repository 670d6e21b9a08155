#include "rbmix/report/svg_plot.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <sstream>

#include "rbmix/core/error.hpp"
#include "rbmix/io/output_file.hpp"

namespace rbmix {
namespace {

constexpr double kFontSize = 12, kTitleFontSize = 15;
constexpr double kPlotWidth = 480, kPlotHeight = 340;
constexpr double kTop = 44;                  // room for the title
constexpr double kBottom = 56;               // tick labels and the x label
constexpr double kYLabelSpace = 28;          // the rotated y label, left of the tick labels
constexpr double kTickLength = 5, kTickGap = 8;
constexpr double kLegendGap = 16;            // between the plot's frame and the legend
constexpr double kLegendSampleWidth = 30;    // the short line (and marker) that shows a series' style
constexpr double kLegendTextGap = 6;
constexpr double kLegendLineHeight = 15, kLegendEntryGap = 5;
constexpr double kRightPad = 12;
constexpr std::size_t kLegendLineCharacters = 40;  // longer labels wrap at spaces
// Markers on every point of a short series; on longer ones about ten per series, staggered between series so that
// curves lying on top of each other still show each one's markers.
constexpr std::size_t kAllMarkersUpTo = 30, kMarkersPerSeries = 10;
constexpr double kMarkerRadius = 3.2;
constexpr double kYPadding = 0.04;  // fraction of the y range left free above and below the data
// Average advance of a character of a sans-serif face, in ems (digits and lower case are 0.5–0.56).
constexpr double kCharacterWidthEm = 0.6;
constexpr std::size_t kMaxLogTicks = 8;

constexpr std::array<const char*, 10> kColours = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                                  "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
enum class Marker { none, circle, square, triangle, diamond, inverted_triangle };
constexpr std::array<Marker, 5> kMarkers = {Marker::circle, Marker::square, Marker::triangle, Marker::diamond,
                                            Marker::inverted_triangle};

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

std::size_t code_points(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// One axis: the data range in plotted coordinates (log10 of the value on a log axis) and where it lies on the
// canvas (`start` is the pixel of `low`, `length` the signed pixel distance to `high`).
struct Axis {
  bool log = false;
  double low = 0, high = 1;
  double start = 0, length = 1;

  double plotted(double value) const { return log ? std::log10(value) : value; }
  double pixel(double value) const { return pixel_of_plotted(plotted(value)); }
  double pixel_of_plotted(double plotted_value) const {
    return start + (plotted_value - low) / (high - low) * length;
  }
  // Values beyond the range (an explicit y range, a band reaching 0 on a log axis) sit on the plot's edge.
  double clamped_pixel(double value) const {
    const double p = log && value <= 0 ? low : plotted(value);
    return pixel_of_plotted(std::clamp(p, low, high));
  }
};

struct Tick {
  double value;
  std::string label;
};

struct SeriesStyle {
  std::string colour;
  std::string dashes;  // stroke-dasharray; empty for a solid line
  Marker marker = Marker::none;
};

struct LegendEntry {
  std::vector<std::string> lines;
  SeriesStyle style;
};

struct Layout {
  double width = 0, height = 0;
  double left = 0;  // the plot frame's left edge
  double legend_x = 0;
  double plot_right() const { return left + kPlotWidth; }
  double plot_bottom() const { return kTop + kPlotHeight; }
};

void check_series(const std::vector<PlotSeries>& series, const PlotOptions& options) {
  for (const auto& s : series) {
    require(s.x.size() == s.y.size(), "plot series '" + s.label + "': x and y differ in length");
    require((s.lower.empty() && s.upper.empty()) || (s.lower.size() == s.x.size() && s.upper.size() == s.x.size()),
            "plot series '" + s.label + "': band lengths differ from x");
    require(s.check_x.size() == s.check_y.size(), "plot series '" + s.label + "': check x and y differ in length");
    const auto check_point = [&](double px, double py) {
      if (!std::isfinite(px) || !std::isfinite(py)) return;
      require(!options.log_x || px > 0, "plot series '" + s.label + "': non-positive x on a log axis");
      require(!options.log_y || py > 0, "plot series '" + s.label + "': non-positive y on a log axis");
    };
    for (std::size_t k = 0; k < s.x.size(); ++k) check_point(s.x[k], s.y[k]);
    for (std::size_t k = 0; k < s.check_x.size(); ++k) check_point(s.check_x[k], s.check_y[k]);
  }
  for (const auto& line : options.reference_lines)
    require(!options.log_y || line.y > 0, "reference line '" + line.label + "': non-positive y on a log axis");
  require(!options.log_y || ((!options.y_min || *options.y_min > 0) && (!options.y_max || *options.y_max > 0)),
          "plot: the y range of a log axis must be positive");
}

// The axes' ranges from the finite points, bands and reference lines; explicit limits override the y range.
std::pair<Axis, Axis> data_axes(const std::vector<PlotSeries>& series, const PlotOptions& options) {
  Axis x{options.log_x}, y{options.log_y};
  double x_low = std::numeric_limits<double>::infinity(), x_high = -x_low, y_low = x_low, y_high = -x_low;
  const auto include_y = [&](double value) {
    if (!std::isfinite(value) || (y.log && value <= 0)) return;
    y_low = std::min(y_low, y.plotted(value)), y_high = std::max(y_high, y.plotted(value));
  };
  const auto include_point = [&](double px, double py) {
    if (!std::isfinite(px) || !std::isfinite(py)) return false;
    x_low = std::min(x_low, x.plotted(px)), x_high = std::max(x_high, x.plotted(px));
    include_y(py);
    return true;
  };
  for (const auto& s : series) {
    for (std::size_t k = 0; k < s.x.size(); ++k)
      if (include_point(s.x[k], s.y[k]) && !s.lower.empty()) include_y(s.lower[k]), include_y(s.upper[k]);
    for (std::size_t k = 0; k < s.check_x.size(); ++k) include_point(s.check_x[k], s.check_y[k]);
  }
  for (const auto& line : options.reference_lines) include_y(line.y);
  if (!std::isfinite(x_low)) x_low = 0, x_high = 1;
  if (!std::isfinite(y_low)) y_low = 0, y_high = 1;
  if (options.y_min) y_low = y.plotted(*options.y_min);
  if (options.y_max) y_high = y.plotted(*options.y_max);
  if (x_high <= x_low) x_high = x_low + 1;
  if (y_high <= y_low) y_high = y_low + 1;
  const double y_pad = kYPadding * (y_high - y_low);
  x.low = x_low, x.high = x_high;
  y.low = y_low - y_pad, y.high = y_high + y_pad;
  return {x, y};
}

std::vector<Tick> ticks_of(const Axis& axis) {
  std::vector<Tick> out;
  if (axis.log) {
    for (double value : log_ticks(std::pow(10.0, axis.low), std::pow(10.0, axis.high)))
      out.push_back({value, log_tick_label(value)});
  } else {
    for (double value : linear_ticks(axis.low, axis.high)) out.push_back({value, format_plot_number(value)});
  }
  return out;
}

SeriesStyle style_of(std::size_t index, bool dashed) {
  // Past the tenth series the colours repeat; a dotted line keeps those series apart from the first ten.
  const bool second_round = index >= kColours.size();
  std::string dashes = dashed ? (second_round ? "6,3,2,3" : "6,3") : (second_round ? "2,2" : "");
  return {kColours[index % kColours.size()], dashes, kMarkers[index % kMarkers.size()]};
}

std::vector<LegendEntry> legend_entries(const std::vector<PlotSeries>& series, const PlotOptions& options) {
  std::vector<LegendEntry> out;
  for (const auto& line : options.reference_lines)
    if (!line.label.empty()) out.push_back({wrap_label(line.label, kLegendLineCharacters), {"black", "2,3"}});
  for (std::size_t s = 0; s < series.size(); ++s)
    if (!series[s].label.empty())
      out.push_back({wrap_label(series[s].label, kLegendLineCharacters), style_of(s, series[s].dashed)});
  return out;
}

// The canvas grows to hold the widest y tick label on the left, the widest legend line on the right, and the
// legend's height; nothing the plot writes is cut off at the canvas's edge.
Layout layout_for(const PlotOptions& options, const std::vector<Tick>& y_ticks,
                  const std::vector<LegendEntry>& legend) {
  double widest_tick = 0;
  for (const auto& tick : y_ticks) widest_tick = std::max(widest_tick, estimated_text_width(tick.label, kFontSize));
  double widest_legend_line = 0, legend_height = 0;
  for (const auto& entry : legend) {
    for (const auto& line : entry.lines)
      widest_legend_line = std::max(widest_legend_line, estimated_text_width(line, kFontSize));
    legend_height += static_cast<double>(entry.lines.size()) * kLegendLineHeight + kLegendEntryGap;
  }
  Layout layout;
  layout.left = kYLabelSpace + widest_tick + kTickGap + kTickLength;
  layout.legend_x = layout.plot_right() + kLegendGap;
  const double legend_width =
      legend.empty() ? 0 : kLegendGap + kLegendSampleWidth + kLegendTextGap + widest_legend_line;
  layout.width = layout.plot_right() + legend_width + kRightPad;
  layout.width = std::max(layout.width, estimated_text_width(options.title, kTitleFontSize) + 2 * kRightPad);
  layout.height = std::max(kTop + kPlotHeight + kBottom, kTop + legend_height + kRightPad);
  return layout;
}

void write_canvas(std::ostream& svg, const Layout& layout, const PlotOptions& options) {
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << layout.width << "\" height=\"" << layout.height
      << "\" font-family=\"sans-serif\" font-size=\"" << kFontSize
      << "\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  // Centred over the plot when it fits there, over the canvas otherwise.
  const double half_title = estimated_text_width(options.title, kTitleFontSize) / 2;
  double title_x = layout.left + kPlotWidth / 2;
  if (title_x - half_title < kRightPad || title_x + half_title > layout.width - kRightPad) title_x = layout.width / 2;
  if (!options.title.empty())
    svg << "<text x=\"" << title_x << "\" y=\"26\" text-anchor=\"middle\" font-size=\"" << kTitleFontSize << "\">"
        << escape(options.title) << "</text>\n";
  svg << "<rect x=\"" << layout.left << "\" y=\"" << kTop << "\" width=\"" << kPlotWidth << "\" height=\""
      << kPlotHeight << "\" fill=\"none\" stroke=\"black\"/>\n";
}

void write_x_axis(std::ostream& svg, const Layout& layout, const Axis& x, const std::string& label) {
  for (const auto& tick : ticks_of(x)) {
    const double p = x.pixel(tick.value);
    svg << "<line x1=\"" << p << "\" x2=\"" << p << "\" y1=\"" << layout.plot_bottom() << "\" y2=\""
        << layout.plot_bottom() + kTickLength << "\" stroke=\"black\"/><text x=\"" << p << "\" y=\""
        << layout.plot_bottom() + kTickLength + 14 << "\" text-anchor=\"middle\">" << escape(tick.label)
        << "</text>\n";
  }
  const std::string text = label + (x.log ? (label.empty() ? "log scale" : " (log scale)") : "");
  if (!text.empty())
    svg << "<text x=\"" << layout.left + kPlotWidth / 2 << "\" y=\"" << layout.plot_bottom() + 44
        << "\" text-anchor=\"middle\">" << escape(text) << "</text>\n";
}

void write_y_axis(std::ostream& svg, const Layout& layout, const Axis& y, const std::vector<Tick>& ticks,
                  const std::string& label) {
  for (const auto& tick : ticks) {
    const double p = y.pixel(tick.value);
    svg << "<line x1=\"" << layout.left - kTickLength << "\" x2=\"" << layout.plot_right() << "\" y1=\"" << p
        << "\" y2=\"" << p << "\" stroke=\"#e0e0e0\"/><text x=\"" << layout.left - kTickLength - 3 << "\" y=\""
        << p + 4 << "\" text-anchor=\"end\">" << escape(tick.label) << "</text>\n";
  }
  const std::string text = label + (y.log ? (label.empty() ? "log scale" : " (log scale)") : "");
  if (!text.empty())
    svg << "<text transform=\"translate(16," << kTop + kPlotHeight / 2 << ") rotate(-90)\" text-anchor=\"middle\">"
        << escape(text) << "</text>\n";
}

void write_reference_lines(std::ostream& svg, const Layout& layout, const Axis& y,
                           const std::vector<PlotReferenceLine>& lines) {
  for (const auto& line : lines) {
    const double p = y.clamped_pixel(line.y);
    svg << "<line x1=\"" << layout.left << "\" x2=\"" << layout.plot_right() << "\" y1=\"" << p << "\" y2=\"" << p
        << "\" stroke=\"black\" stroke-dasharray=\"2,3\"/>\n";
  }
}

void write_band(std::ostream& svg, const Axis& x, const Axis& y, const PlotSeries& series, const SeriesStyle& style) {
  if (series.lower.empty()) return;
  std::ostringstream band;
  for (std::size_t k = 0; k < series.x.size(); ++k)
    if (std::isfinite(series.lower[k]) && std::isfinite(series.x[k]))
      band << x.pixel(series.x[k]) << ',' << y.clamped_pixel(series.lower[k]) << ' ';
  for (std::size_t k = series.x.size(); k-- > 0;)
    if (std::isfinite(series.upper[k]) && std::isfinite(series.x[k]))
      band << x.pixel(series.x[k]) << ',' << y.clamped_pixel(series.upper[k]) << ' ';
  svg << "<polygon points=\"" << band.str() << "\" fill=\"" << style.colour
      << "\" fill-opacity=\"0.15\" stroke=\"none\"/>\n";
}

std::vector<std::pair<double, double>> finite_pixels(const Axis& x, const Axis& y, const PlotSeries& series) {
  std::vector<std::pair<double, double>> out;
  for (std::size_t k = 0; k < series.x.size(); ++k)
    if (std::isfinite(series.x[k]) && std::isfinite(series.y[k]))
      out.emplace_back(x.pixel(series.x[k]), y.clamped_pixel(series.y[k]));
  return out;
}

void write_line(std::ostream& svg, const std::vector<std::pair<double, double>>& pixels, const SeriesStyle& style) {
  svg << "<polyline points=\"";
  for (const auto& [px, py] : pixels) svg << px << ',' << py << ' ';
  svg << "\" fill=\"none\" stroke=\"" << style.colour << "\" stroke-width=\"1.6\"";
  if (!style.dashes.empty()) svg << " stroke-dasharray=\"" << style.dashes << '"';
  svg << "/>\n";
}

void write_marker(std::ostream& svg, double cx, double cy, const SeriesStyle& style) {
  const double r = kMarkerRadius;
  const auto path = [&](std::initializer_list<std::pair<double, double>> corners) {
    svg << "<path d=\"";
    char command = 'M';
    for (const auto& [dx, dy] : corners) svg << command << cx + dx * r << ',' << cy + dy * r << ' ', command = 'L';
    svg << "Z\" fill=\"" << style.colour << "\"/>\n";
  };
  switch (style.marker) {
    case Marker::none:
      return;
    case Marker::circle:
      svg << "<circle cx=\"" << cx << "\" cy=\"" << cy << "\" r=\"" << r << "\" fill=\"" << style.colour << "\"/>\n";
      return;
    case Marker::square:
      svg << "<rect x=\"" << cx - 0.85 * r << "\" y=\"" << cy - 0.85 * r << "\" width=\"" << 1.7 * r
          << "\" height=\"" << 1.7 * r << "\" fill=\"" << style.colour << "\"/>\n";
      return;
    case Marker::triangle:
      path({{0, -1.15}, {1.1, 0.8}, {-1.1, 0.8}});
      return;
    case Marker::diamond:
      path({{0, -1.2}, {1, 0}, {0, 1.2}, {-1, 0}});
      return;
    case Marker::inverted_triangle:
      path({{0, 1.15}, {1.1, -0.8}, {-1.1, -0.8}});
      return;
  }
}

// A series' check points: open rings, larger than the markers, so that a check lying on its own line still shows.
void write_check_points(std::ostream& svg, const Axis& x, const Axis& y, const PlotSeries& series,
                        const SeriesStyle& style) {
  for (std::size_t k = 0; k < series.check_x.size(); ++k) {
    if (!std::isfinite(series.check_x[k]) || !std::isfinite(series.check_y[k])) continue;
    svg << "<circle class=\"check\" cx=\"" << x.pixel(series.check_x[k]) << "\" cy=\""
        << y.clamped_pixel(series.check_y[k]) << "\" r=\"" << 2.2 * kMarkerRadius << "\" fill=\"none\" stroke=\""
        << style.colour << "\" stroke-width=\"1.8\"/>\n";
  }
}

// Every point of a short series; an evenly spaced subset of a long one, shifted by the series' index so that two
// series along the same path mark different points.
void write_markers(std::ostream& svg, const std::vector<std::pair<double, double>>& pixels, std::size_t index,
                   std::size_t series_count, const SeriesStyle& style) {
  if (pixels.size() <= kAllMarkersUpTo) {
    for (const auto& [px, py] : pixels) write_marker(svg, px, py, style);
    return;
  }
  const std::size_t stride = pixels.size() / kMarkersPerSeries;
  for (std::size_t k = index * stride / std::max<std::size_t>(series_count, 1); k < pixels.size(); k += stride)
    write_marker(svg, pixels[k].first, pixels[k].second, style);
}

void write_legend(std::ostream& svg, const Layout& layout, const std::vector<LegendEntry>& legend) {
  double top = kTop + 4;
  const double text_x = layout.legend_x + kLegendSampleWidth + kLegendTextGap;
  for (const auto& entry : legend) {
    const double middle = top + kLegendLineHeight / 2;
    svg << "<line x1=\"" << layout.legend_x << "\" x2=\"" << layout.legend_x + kLegendSampleWidth << "\" y1=\""
        << middle << "\" y2=\"" << middle << "\" stroke=\"" << entry.style.colour << "\" stroke-width=\"2\"";
    if (!entry.style.dashes.empty()) svg << " stroke-dasharray=\"" << entry.style.dashes << '"';
    svg << "/>\n";
    write_marker(svg, layout.legend_x + kLegendSampleWidth / 2, middle, entry.style);
    svg << "<text x=\"" << text_x << "\" y=\"" << middle + 4 << "\">";
    if (entry.lines.size() == 1) {
      svg << escape(entry.lines.front());
    } else {
      for (std::size_t k = 0; k < entry.lines.size(); ++k)
        svg << "<tspan x=\"" << text_x << "\" dy=\"" << (k == 0 ? 0 : kLegendLineHeight) << "\">"
            << escape(entry.lines[k]) << "</tspan>";
    }
    svg << "</text>\n";
    top += static_cast<double>(entry.lines.size()) * kLegendLineHeight + kLegendEntryGap;
  }
}

}  // namespace

std::string format_plot_number(double value) {
  if (!std::isfinite(value)) return value != value ? "nan" : value > 0 ? "inf" : "-inf";
  char rounded_text[32];
  std::snprintf(rounded_text, sizeof rounded_text, "%.12g", value);
  const double rounded = std::strtod(rounded_text, nullptr);
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, rounded == 0 ? 0.0 : rounded);
  return std::string(buffer, result.ptr);
}

std::vector<double> linear_ticks(double low, double high) {
  if (!(high > low) || !std::isfinite(low) || !std::isfinite(high)) return {};
  const double span = high - low;
  const double raw = span / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10 * magnitude;
  for (double factor : {1.0, 2.0, 5.0})
    if (raw <= factor * magnitude) {
      step = factor * magnitude;
      break;
    }
  // Each tick is k·step for an integer k, not a running sum, so errors do not accumulate.
  std::vector<double> out;
  for (double k = std::ceil(low / step); k * step <= high + 1e-9 * span; ++k)
    out.push_back(std::abs(k) < 0.5 ? 0.0 : k * step);
  return out;
}

std::vector<double> log_ticks(double low, double high) {
  if (!(high > low) || !(low > 0) || !std::isfinite(high)) return {};
  const double slack = 1e-9;  // a range that ends on a power of ten keeps its tick despite rounding in log10
  const double first = std::ceil(std::log10(low) - slack), last = std::floor(std::log10(high) + slack);
  std::vector<double> out;
  if (last - first >= 1) {
    const double every = std::ceil((last - first + 1) / static_cast<double>(kMaxLogTicks));
    for (double exponent = first; exponent <= last; exponent += every) out.push_back(std::pow(10.0, exponent));
    return out;
  }
  for (double exponent = first - 1; exponent <= last; ++exponent)
    for (double factor : {1.0, 2.0, 5.0}) {
      const double value = factor * std::pow(10.0, exponent);
      if (value >= low * (1 - slack) && value <= high * (1 + slack)) out.push_back(value);
    }
  if (out.size() >= 2) return out;
  return linear_ticks(low, high);
}

std::string log_tick_label(double value) {
  const double exponent = std::round(std::log10(value));
  if (std::abs(value - std::pow(10.0, exponent)) > 1e-9 * value || std::abs(exponent) <= 3)
    return format_plot_number(value);
  static const std::array<const char*, 10> kSuperscripts = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string out = exponent < 0 ? "10⁻" : "10";
  for (char digit : std::to_string(static_cast<long long>(std::abs(exponent)))) out += kSuperscripts[digit - '0'];
  return out;
}

double estimated_text_width(const std::string& text, double font_size) {
  return kCharacterWidthEm * font_size * static_cast<double>(code_points(text));
}

std::vector<std::string> wrap_label(const std::string& label, std::size_t max_characters) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t start = 0;
  while (start < label.size()) {
    std::size_t end = label.find(' ', start);
    end = end == std::string::npos ? label.size() : end + 1;  // a word with its trailing space
    const std::string word = label.substr(start, end - start);
    if (!line.empty() && code_points(line) + code_points(word) > max_characters + (word.back() == ' ' ? 1 : 0)) {
      lines.push_back(line);
      line.clear();
    }
    line += word;
    start = end;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

std::string render_svg_plot(const std::vector<PlotSeries>& series, const PlotOptions& options) {
  check_series(series, options);
  auto [x, y] = data_axes(series, options);
  const std::vector<Tick> y_ticks = ticks_of(y);
  const std::vector<LegendEntry> legend = legend_entries(series, options);
  const Layout layout = layout_for(options, y_ticks, legend);
  x.start = layout.left, x.length = kPlotWidth;
  y.start = layout.plot_bottom(), y.length = -kPlotHeight;

  std::ostringstream svg;
  write_canvas(svg, layout, options);
  write_x_axis(svg, layout, x, options.x_label);
  write_y_axis(svg, layout, y, y_ticks, options.y_label);
  write_reference_lines(svg, layout, y, options.reference_lines);
  // Bands under every line, lines under every marker: a later series cannot hide an earlier one's markers.
  std::vector<SeriesStyle> styles;
  for (std::size_t s = 0; s < series.size(); ++s) styles.push_back(style_of(s, series[s].dashed));
  for (std::size_t s = 0; s < series.size(); ++s) write_band(svg, x, y, series[s], styles[s]);
  std::vector<std::vector<std::pair<double, double>>> pixels;
  for (std::size_t s = 0; s < series.size(); ++s) {
    pixels.push_back(finite_pixels(x, y, series[s]));
    write_line(svg, pixels.back(), styles[s]);
  }
  for (std::size_t s = 0; s < series.size(); ++s) write_markers(svg, pixels[s], s, series.size(), styles[s]);
  for (std::size_t s = 0; s < series.size(); ++s) write_check_points(svg, x, y, series[s], styles[s]);
  write_legend(svg, layout, legend);
  svg << "</svg>\n";
  return svg.str();
}

void write_svg_plot(const std::filesystem::path& path, const std::vector<PlotSeries>& series,
                    const PlotOptions& options) {
  write_output_file(path, render_svg_plot(series, options));
}

}  // namespace rbmix
