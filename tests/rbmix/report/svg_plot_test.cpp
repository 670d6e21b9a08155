#include "rbmix/report/svg_plot.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rbmix/core/error.hpp"
#include "support/input_error_message.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Coordinates are printed with 6 significant digits: on a canvas under 1000 px that is within 0.001 px, and the
// linear-scale identities below compare sums of two such numbers.
constexpr double kPixelTolerance = 0.01;

// Just enough of XML to hold the plot to the rules a browser enforces: one root, properly nested tags, quoted and
// unique attributes, and '&' only as an entity. Elements come out in document order with their text unescaped; an
// element's text includes that of the elements inside it (a wrapped legend label's <tspan> lines).
struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;
};
struct ParsedSvg {
  std::string error;  // empty when well-formed
  std::vector<Element> elements;

  std::vector<const Element*> named(const std::string& name) const {
    std::vector<const Element*> out;
    for (const auto& element : elements)
      if (element.name == name) out.push_back(&element);
    return out;
  }
  std::vector<std::string> texts() const {
    std::vector<std::string> out;
    for (const auto* element : named("text")) out.push_back(element->text);
    return out;
  }
};

bool is_name_character(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' || c == '.';
}

// Replaces the five predefined entities; returns false on a bare '&' or an unknown entity.
bool unescape(const std::string& raw, std::string& out) {
  static const std::vector<std::pair<std::string, char>> kEntities = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
  out.clear();
  for (std::size_t k = 0; k < raw.size();) {
    if (raw[k] != '&') {
      out += raw[k++];
      continue;
    }
    bool known = false;
    for (const auto& [entity, character] : kEntities)
      if (raw.compare(k, entity.size(), entity) == 0) {
        out += character;
        k += entity.size();
        known = true;
        break;
      }
    if (!known) return false;
  }
  return true;
}

ParsedSvg parse_svg(const std::string& svg) {
  ParsedSvg parsed;
  std::vector<std::size_t> open;  // indices of the elements not yet closed
  bool root_closed = false;
  std::size_t k = 0;
  const auto fail = [&](const std::string& why) {
    parsed.error = why + " at byte " + std::to_string(k);
    return parsed;
  };
  const auto read_name = [&] {
    const std::size_t start = k;
    while (k < svg.size() && is_name_character(svg[k])) ++k;
    return svg.substr(start, k - start);
  };
  while (k < svg.size()) {
    if (svg[k] != '<') {
      const std::size_t end = svg.find('<', k);
      const std::string raw = svg.substr(k, end == std::string::npos ? std::string::npos : end - k);
      k = end == std::string::npos ? svg.size() : end;
      const bool blank = raw.find_first_not_of(" \n\t") == std::string::npos;
      if (open.empty()) {
        if (!blank) return fail("text outside the root element");
        continue;
      }
      std::string text;
      if (!unescape(raw, text)) return fail("bare '&' in text");
      for (std::size_t index : open) parsed.elements[index].text += text;
      continue;
    }
    ++k;
    if (k < svg.size() && svg[k] == '/') {
      ++k;
      const std::string name = read_name();
      if (k >= svg.size() || svg[k] != '>') return fail("malformed closing tag");
      ++k;
      if (open.empty() || parsed.elements[open.back()].name != name)
        return fail("closing tag </" + name + "> mismatched");
      open.pop_back();
      if (open.empty()) root_closed = true;
      continue;
    }
    if (root_closed || (open.empty() && !parsed.elements.empty())) return fail("second root element");
    Element element;
    element.name = read_name();
    if (element.name.empty()) return fail("element without a name");
    for (;;) {
      while (k < svg.size() && std::isspace(static_cast<unsigned char>(svg[k]))) ++k;
      if (k >= svg.size()) return fail("unterminated tag");
      if (svg.compare(k, 2, "/>") == 0 || svg[k] == '>') break;
      const std::string attribute = read_name();
      if (attribute.empty()) return fail("malformed attribute");
      if (k + 1 >= svg.size() || svg[k] != '=' || svg[k + 1] != '"') return fail("attribute without a quoted value");
      k += 2;
      const std::size_t end = svg.find('"', k);
      if (end == std::string::npos) return fail("unterminated attribute value");
      const std::string raw = svg.substr(k, end - k);
      k = end + 1;
      std::string value;
      if (raw.find('<') != std::string::npos || !unescape(raw, value)) return fail("bad attribute value");
      if (!element.attributes.emplace(attribute, value).second) return fail("duplicate attribute " + attribute);
    }
    const bool self_closing = svg[k] == '/';
    k += self_closing ? 2 : 1;
    parsed.elements.push_back(std::move(element));
    if (!self_closing)
      open.push_back(parsed.elements.size() - 1);
    else if (open.empty())
      root_closed = true;
  }
  if (!open.empty()) return fail("unclosed element <" + parsed.elements[open.back()].name + ">");
  if (parsed.elements.empty() || parsed.elements.front().name != "svg") return fail("the root is not <svg>");
  return parsed;
}

// "x,y x,y …" of a polyline or polygon.
std::vector<std::pair<double, double>> points_of(const Element& element) {
  std::vector<std::pair<double, double>> points;
  std::istringstream in(element.attributes.at("points"));
  double x = 0, y = 0;
  char comma = 0;
  while (in >> x >> comma >> y) points.emplace_back(x, y);
  return points;
}

// Every number the plot writes into an attribute must be finite: "nan" or "inf" in a coordinate breaks the figure.
bool all_attribute_numbers_finite(const ParsedSvg& parsed) {
  for (const auto& element : parsed.elements)
    for (const auto& [name, value] : element.attributes) {
      std::string lower = value;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower.find("nan") != std::string::npos || lower.find("inf") != std::string::npos) return false;
    }
  return true;
}

ParsedSvg render_and_parse(const std::vector<PlotSeries>& series, const PlotOptions& options) {
  ParsedSvg parsed = parse_svg(render_svg_plot(series, options));
  EXPECT_EQ(parsed.error, "");
  EXPECT_TRUE(all_attribute_numbers_finite(parsed));
  return parsed;
}

using testing::input_error_message;

TEST(SvgPlotParser, RejectsMalformedDocuments) {
  // The checker itself must be able to fail, or the tests below prove nothing.
  EXPECT_NE(parse_svg("<svg><text>a</svg></text>").error, "");
  EXPECT_NE(parse_svg("<svg><text>a & b</text></svg>").error, "");
  EXPECT_NE(parse_svg("<svg width=1></svg>").error, "");
  EXPECT_NE(parse_svg("<svg a=\"1\" a=\"2\"></svg>").error, "");
  EXPECT_NE(parse_svg("<svg>").error, "");
  EXPECT_NE(parse_svg("<svg/><svg/>").error, "");
  EXPECT_EQ(parse_svg("<svg x=\"&lt;\"><text>a &amp; b</text><line/></svg>\n").error, "");
}

TEST(SvgPlot, IsWellFormedSvgWithTitleAxisLabelsAndLegend) {
  PlotOptions options;
  options.title = "Learning curves <CD & PCD>";
  options.x_label = "update";
  options.y_label = "log-likelihood \"exact\"";
  const std::vector<PlotSeries> series = {{"CD-1", {0, 1, 2}, {-10, -8, -7}, {}, {}, false},
                                          {"PCD & \"flip\" <T>", {0, 1, 2}, {-11, -7, -6}, {}, {}, true}};
  const ParsedSvg parsed = render_and_parse(series, options);
  const Element& root = parsed.elements.front();
  EXPECT_EQ(root.attributes.at("xmlns"), "http://www.w3.org/2000/svg");
  EXPECT_GT(std::stod(root.attributes.at("width")), 0);
  EXPECT_GT(std::stod(root.attributes.at("height")), 0);
  const auto texts = parsed.texts();
  for (const std::string& expected :
       {options.title, options.x_label, options.y_label, series[0].label, series[1].label})
    EXPECT_THAT(texts, Contains(HasSubstr(expected)));
  const auto lines = parsed.named("polyline");
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_NE(lines[0]->attributes.at("stroke"), lines[1]->attributes.at("stroke"));  // series tell apart
  EXPECT_EQ(lines[0]->attributes.count("stroke-dasharray"), 0U);
  EXPECT_EQ(lines[1]->attributes.count("stroke-dasharray"), 1U);
}

// Larger x to the right, larger y up (SVG's y axis points down), on a linear scale: equal steps in the data are
// equal steps on the canvas.
TEST(SvgPlot, MapsDataLinearlyWithYUpwards) {
  const ParsedSvg parsed = render_and_parse({{"line", {0, 1, 2, 3}, {0, 10, 20, 5}, {}, {}, false}}, {});
  const auto points = points_of(*parsed.named("polyline").at(0));
  ASSERT_EQ(points.size(), 4U);
  EXPECT_NEAR(points[1].first - points[0].first, points[2].first - points[1].first, kPixelTolerance);
  EXPECT_NEAR(points[2].first - points[1].first, points[3].first - points[2].first, kPixelTolerance);
  EXPECT_GT(points[1].first, points[0].first);
  EXPECT_LT(points[1].second, points[0].second);
  EXPECT_NEAR(points[1].second - points[0].second, points[2].second - points[1].second, kPixelTolerance);
  EXPECT_NEAR(points[3].second, (points[0].second + points[1].second) / 2, kPixelTolerance);  // y = 5
}

TEST(SvgPlot, LogAxisSpacesDecadesEqually) {
  PlotOptions options;
  options.log_x = true;
  const ParsedSvg parsed = render_and_parse({{"acf", {1, 10, 100, 1000}, {1, 2, 3, 4}, {}, {}, false}}, options);
  const auto points = points_of(*parsed.named("polyline").at(0));
  ASSERT_EQ(points.size(), 4U);
  EXPECT_GT(points[1].first - points[0].first, 0);
  EXPECT_NEAR(points[1].first - points[0].first, points[2].first - points[1].first, kPixelTolerance);
  EXPECT_NEAR(points[2].first - points[1].first, points[3].first - points[2].first, kPixelTolerance);
}

// A diverged run still plots up to divergence: non-finite points are skipped, finite ones kept.
TEST(SvgPlot, SkipsNonFinitePoints) {
  const ParsedSvg parsed = render_and_parse(
      {{"diverged", {0, 1, 2, 3, kNaN, 5}, {1, kNaN, 3, kInfinity, 2, -kInfinity}, {}, {}, false}}, {});
  const auto points = points_of(*parsed.named("polyline").at(0));
  ASSERT_EQ(points.size(), 2U);  // (0, 1) and (2, 3)
  EXPECT_LT(points[0].first, points[1].first);
  EXPECT_GT(points[0].second, points[1].second);
}

TEST(SvgPlot, HandlesNoSeriesEmptySeriesAndAllNaNSeries) {
  PlotOptions options;
  options.title = "nothing yet";
  EXPECT_THAT(render_and_parse({}, options).texts(), Contains(HasSubstr("nothing yet")));
  const ParsedSvg parsed =
      render_and_parse({{"empty", {}, {}, {}, {}, false}, {"all NaN", {kNaN, 1}, {0, kNaN}, {}, {}, false}}, options);
  EXPECT_THAT(parsed.texts(), Contains(HasSubstr("empty")));
  EXPECT_THAT(parsed.texts(), Contains(HasSubstr("all NaN")));
  for (const auto* line : parsed.named("polyline")) EXPECT_TRUE(points_of(*line).empty());
}

// A single point or a flat line has no extent to scale by; the plot must not divide by zero.
TEST(SvgPlot, HandlesASinglePointAndAFlatLine) {
  const ParsedSvg single = render_and_parse({{"one", {3}, {7}, {}, {}, false}}, {});
  EXPECT_EQ(points_of(*single.named("polyline").at(0)).size(), 1U);
  const ParsedSvg flat = render_and_parse({{"flat", {0, 1, 2}, {4, 4, 4}, {}, {}, false}}, {});
  const auto points = points_of(*flat.named("polyline").at(0));
  ASSERT_EQ(points.size(), 3U);
  EXPECT_EQ(points[0].second, points[2].second);
}

// An explicit axis range clamps points outside it to the plot's edge, never off the canvas.
TEST(SvgPlot, ExplicitRangeKeepsPointsOnTheCanvas) {
  PlotOptions options;
  options.y_min = 0;
  options.y_max = 1;
  const ParsedSvg parsed = render_and_parse({{"wild", {0, 1, 2, 3}, {-1e6, 0.5, 1e6, 0.25}, {}, {}, false}}, options);
  const double height = std::stod(parsed.elements.front().attributes.at("height"));
  const auto points = points_of(*parsed.named("polyline").at(0));
  ASSERT_EQ(points.size(), 4U);
  for (const auto& point : points) {
    EXPECT_GE(point.second, 0);
    EXPECT_LE(point.second, height);
  }
  EXPECT_GT(points[0].second, points[3].second);  // −1e6 sits at the bottom edge, below 0.25
  EXPECT_LT(points[2].second, points[1].second);  // 1e6 at the top edge, above 0.5
}

// A reference line sits at its y on the same scale as the data: y = 5 halfway between y = 0 and y = 10.
TEST(SvgPlot, ReferenceLineIsDrawnAtItsValueAndLabelled) {
  PlotOptions options;
  options.reference_lines = {{"exact log Z", 5.0}};
  const ParsedSvg parsed = render_and_parse({{"data", {0, 1}, {0, 10}, {}, {}, false}}, options);
  EXPECT_THAT(parsed.texts(), Contains(HasSubstr("exact log Z")));
  const auto points = points_of(*parsed.named("polyline").at(0));
  const double halfway = (points[0].second + points[1].second) / 2;
  bool found = false;
  for (const auto* line : parsed.named("line"))
    if (line->attributes.count("stroke-dasharray") &&
        std::stod(line->attributes.at("y1")) == std::stod(line->attributes.at("y2")) &&
        std::abs(std::stod(line->attributes.at("y1")) - halfway) < kPixelTolerance)
      found = true;
  EXPECT_TRUE(found) << "no dashed horizontal line at y = " << halfway;
}

TEST(SvgPlot, BandIsAPolygonAroundTheLine) {
  const PlotSeries series{"mean ± 2 se", {0, 1, 2}, {1, 2, 3}, {0.5, 1.5, kNaN}, {1.5, 2.5, 3.5}, false};
  const ParsedSvg parsed = render_and_parse({series}, {});
  const auto polygons = parsed.named("polygon");
  ASSERT_EQ(polygons.size(), 1U);
  EXPECT_EQ(points_of(*polygons[0]).size(), 5U);  // 2 finite lower and 3 finite upper bounds
}

// Check points are open rings in their series' colour, at their own coordinates, and widen the axes: a check far
// below the line is placed below every point of it rather than cut off at the plot's edge.
TEST(SvgPlot, CheckPointsAreRingsInTheSeriesColourWithinTheAxes) {
  PlotSeries tracked{"tracked", {0, 1, 2}, {-80, -79, -78}, {}, {}, false};
  tracked.check_x = {2};
  tracked.check_y = {-92};
  const PlotSeries other{"other", {0, 2}, {-100, -95}, {}, {}, false};
  const ParsedSvg parsed = render_and_parse({tracked, other}, {});
  std::vector<const Element*> rings;
  for (const Element* circle : parsed.named("circle"))
    if (circle->attributes.count("class") && circle->attributes.at("class") == "check") rings.push_back(circle);
  ASSERT_EQ(rings.size(), 1U);
  const auto lines = parsed.named("polyline");
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(rings[0]->attributes.at("stroke"), lines[0]->attributes.at("stroke"));
  EXPECT_NE(rings[0]->attributes.at("stroke"), lines[1]->attributes.at("stroke"));
  EXPECT_EQ(rings[0]->attributes.at("fill"), "none");
  const auto tracked_points = points_of(*lines[0]);
  const auto other_points = points_of(*lines[1]);
  const double ring_x = std::stod(rings[0]->attributes.at("cx"));
  const double ring_y = std::stod(rings[0]->attributes.at("cy"));
  EXPECT_NEAR(ring_x, tracked_points.back().first, kPixelTolerance);  // at x = 2
  EXPECT_GT(ring_y, tracked_points.back().second);                     // below the line's −78 (y grows downwards)
  // −92 lies between the other line's −100 and −95 in proportion: 8/5 of the way from −100 to −95, on a linear axis.
  const double expected = other_points[0].second + (other_points[1].second - other_points[0].second) * 8.0 / 5.0;
  EXPECT_NEAR(ring_y, expected, kPixelTolerance);

  PlotSeries alone{"alone", {0, 1}, {0, 1}, {}, {}, false};
  alone.check_x = {5};
  alone.check_y = {7};
  const auto alone_points = points_of(*render_and_parse({alone}, {}).named("polyline").at(0));
  const ParsedSvg widened = render_and_parse({alone}, {});
  int widened_rings = 0;
  for (const Element* circle : widened.named("circle")) {
    if (!circle->attributes.count("class") || circle->attributes.at("class") != "check") continue;
    ++widened_rings;
    EXPECT_GT(std::stod(circle->attributes.at("cx")), alone_points.back().first + 100);  // x = 5 is on the canvas
  }
  EXPECT_EQ(widened_rings, 1);

  PlotSeries mismatched{"mismatched checks", {0, 1}, {0, 1}, {}, {}, false};
  mismatched.check_x = {1};
  EXPECT_THAT(input_error_message([&] { render_svg_plot({mismatched}, {}); }), HasSubstr("'mismatched checks'"));
}

TEST(SvgPlot, RefusesInconsistentSeriesNamingThem) {
  EXPECT_THAT(input_error_message([] {
                render_svg_plot({{"short y", {0, 1, 2}, {0, 1}, {}, {}, false}}, {});
              }),
              HasSubstr("'short y'"));
  EXPECT_THAT(input_error_message([] {
                render_svg_plot({{"half band", {0, 1}, {0, 1}, {0, 1}, {}, false}}, {});
              }),
              HasSubstr("'half band'"));
  PlotOptions log_axis;
  log_axis.log_x = true;
  EXPECT_THAT(input_error_message([&] {
                render_svg_plot({{"zero x", {0, 1}, {1, 1}, {}, {}, false}}, log_axis);
              }),
              AllOf(HasSubstr("'zero x'"), HasSubstr("log axis")));
}

RC_GTEST_PROP(SvgPlot, ArbitrarySeriesGiveWellFormedPlotsWithEveryLabel, ()) {
  const auto series_count = *rc::gen::inRange(0, 5);
  std::vector<PlotSeries> series;
  for (int s = 0; s < series_count; ++s) {
    const auto length = *rc::gen::inRange<std::size_t>(0, 40);
    PlotSeries current;
    current.label = *rc::gen::container<std::string>(rc::gen::elementOf(std::string("ab <>&\"'1")));
    const auto value =
        rc::gen::oneOf(rc::gen::map(rc::gen::inRange(-1000000, 1000001), [](int k) { return k / 100.0; }),
                       rc::gen::element(kNaN, kInfinity, -kInfinity));
    current.x = *rc::gen::container<std::vector<double>>(length, value);
    current.y = *rc::gen::container<std::vector<double>>(length, value);
    current.dashed = *rc::gen::arbitrary<bool>();
    series.push_back(current);
  }
  const ParsedSvg parsed = parse_svg(render_svg_plot(series, {}));
  RC_ASSERT(parsed.error == "");
  RC_ASSERT(all_attribute_numbers_finite(parsed));
  const auto lines = parsed.named("polyline");
  RC_ASSERT(lines.size() == series.size());
  const auto texts = parsed.texts();
  RC_ASSERT(std::find(texts.begin(), texts.end(), std::string()) == texts.end());  // no unlabelled legend entry
  for (std::size_t s = 0; s < series.size(); ++s) {
    RC_ASSERT(series[s].label.empty() || std::find(texts.begin(), texts.end(), series[s].label) != texts.end());
    std::size_t finite = 0;
    for (std::size_t k = 0; k < series[s].x.size(); ++k)
      finite += std::isfinite(series[s].x[k]) && std::isfinite(series[s].y[k]);
    RC_ASSERT(points_of(*lines[s]).size() == finite);
  }
}

// The frame of the plot: the <rect> with a stroke (the first <rect> is the white background).
const Element& frame_of(const ParsedSvg& parsed) {
  for (const auto* rect : parsed.named("rect"))
    if (rect->attributes.count("stroke")) return *rect;
  throw std::runtime_error("no plot frame");
}

TEST(SvgPlotNumbers, AreShortAndFreeOfBinaryNoise) {
  EXPECT_EQ(format_plot_number(0.1), "0.1");
  EXPECT_EQ(format_plot_number(0.1 + 0.2), "0.3");  // 0.30000000000000004 in binary
  EXPECT_EQ(format_plot_number(3 * 0.1), "0.3");
  EXPECT_EQ(format_plot_number(0.05), "0.05");
  EXPECT_EQ(format_plot_number(300), "300");
  EXPECT_EQ(format_plot_number(-2.5), "-2.5");
  EXPECT_EQ(format_plot_number(-0.0), "0");
  EXPECT_EQ(format_plot_number(1e6), "1e+06");
  EXPECT_EQ(format_plot_number(2.5e-5), "2.5e-05");
  EXPECT_EQ(format_plot_number(-87.654321), "-87.654321");  // short, but never rounded below what it needs
}

TEST(SvgPlotTicks, LinearTicksAreRoundMultiplesCoveringTheRange) {
  EXPECT_EQ(linear_ticks(0, 1), (std::vector<double>{0, 0.2, 0.4, 0.6000000000000001, 0.8, 1}));
  EXPECT_EQ(linear_ticks(-7.3, 12.1), (std::vector<double>{-5, 0, 5, 10}));
  EXPECT_EQ(linear_ticks(1000, 6000), (std::vector<double>{1000, 2000, 3000, 4000, 5000, 6000}));
  std::vector<std::string> labels;
  for (double tick : linear_ticks(0, 0.7)) labels.push_back(format_plot_number(tick));
  EXPECT_EQ(labels, (std::vector<std::string>{"0", "0.2", "0.4", "0.6"}));  // 3 · 0.2 is 0.6000000000000001
  EXPECT_TRUE(linear_ticks(1, 1).empty());
}

TEST(SvgPlotTicks, LogTicksArePowersOfTen) {
  EXPECT_EQ(log_ticks(1, 3162.3), (std::vector<double>{1, 10, 100, 1000}));
  EXPECT_EQ(log_ticks(31.62, 31620), (std::vector<double>{100, 1000, 10000}));
  // Many decades: thinned to at most eight, still powers of ten.
  const std::vector<double> wide = log_ticks(1e-3, 1e12);
  EXPECT_LE(wide.size(), 8U);
  EXPECT_GE(wide.size(), 5U);
  for (double tick : wide) EXPECT_NEAR(std::log10(tick), std::round(std::log10(tick)), 1e-12) << tick;
  // Under two powers inside: the 1-2-5 multiples, never 31.62 or 316.2.
  EXPECT_EQ(log_ticks(31.62, 316.2), (std::vector<double>{50, 100, 200}));
  EXPECT_EQ(log_ticks(1.1, 1.9).size(), linear_ticks(1.1, 1.9).size());
  EXPECT_EQ(log_tick_label(1000), "1000");
  EXPECT_EQ(log_tick_label(0.001), "0.001");
  EXPECT_EQ(log_tick_label(1e6), "10⁶");
  EXPECT_EQ(log_tick_label(1e-12), "10⁻¹²");
  EXPECT_EQ(log_tick_label(200), "200");
}

TEST(SvgPlotTicks, LogAxisIsLabelledAtPowersOfTen) {
  PlotOptions options;
  options.log_x = true;
  const ParsedSvg parsed =
      render_and_parse({{"ais", {31.622776601683793, 100, 316.22776601683796, 1000, 3162.2776601683795},
                         {1, 2, 3, 4, 5}, {}, {}, false}},
                       options);
  const auto texts = parsed.texts();
  EXPECT_THAT(texts, Contains("100"));
  EXPECT_THAT(texts, Contains("1000"));
  EXPECT_THAT(texts, ::testing::Not(Contains(HasSubstr("31.62"))));
  EXPECT_THAT(texts, ::testing::Not(Contains(HasSubstr("316.2"))));
}

TEST(SvgPlot, LogYAxisSpacesDecadesEquallyAndRefusesNonPositiveValues) {
  PlotOptions options;
  options.log_y = true;
  const ParsedSvg parsed = render_and_parse({{"seconds", {0, 1, 2}, {1, 10, 100}, {}, {}, false}}, options);
  const auto points = points_of(*parsed.named("polyline").at(0));
  ASSERT_EQ(points.size(), 3U);
  EXPECT_LT(points[1].second, points[0].second);
  EXPECT_NEAR(points[0].second - points[1].second, points[1].second - points[2].second, kPixelTolerance);
  EXPECT_THAT(parsed.texts(), Contains("10"));
  EXPECT_THAT(input_error_message([&] { render_svg_plot({{"zero", {0, 1}, {0, 1}, {}, {}, false}}, options); }),
              AllOf(HasSubstr("'zero'"), HasSubstr("log axis")));
}

TEST(SvgPlotLegend, WrapsLongLabelsAtSpacesKeepingEveryCharacter) {
  const std::string label = "bas4x4_16h_cd5 forward float with a long explanation of the setting";
  const std::vector<std::string> lines = wrap_label(label, 20);
  EXPECT_GT(lines.size(), 1U);
  std::string joined;
  for (const auto& line : lines) {
    EXPECT_LE(line.size(), 21U) << line;  // 20 and the trailing space
    joined += line;
  }
  EXPECT_EQ(joined, label);
  EXPECT_EQ(wrap_label("short", 20), std::vector<std::string>{"short"});
  EXPECT_EQ(wrap_label("averyveryverylongwordthatcannotbreak x", 10),
            (std::vector<std::string>{"averyveryverylongwordthatcannotbreak ", "x"}));
  EXPECT_EQ(wrap_label("", 10), std::vector<std::string>{""});
}

// The legend is sized from its text: the canvas reaches past the end of the widest legend line, however long.
TEST(SvgPlotLegend, CanvasHoldsEveryLegendLine) {
  for (const std::string& label : {std::string("CD-1"), std::string("bas4x4_16h_cd5 forward float"),
                                   std::string("-entropy of the training data"),
                                   std::string(90, 'w') + " and then some more words to wrap"}) {
    PlotOptions options;
    options.reference_lines = {{label, 0.5}};
    const ParsedSvg parsed = render_and_parse({{label, {0, 1}, {0, 1}, {}, {}, false}}, options);
    const double width = std::stod(parsed.elements.front().attributes.at("width"));
    const double height = std::stod(parsed.elements.front().attributes.at("height"));
    int legend_texts = 0;
    for (const auto& element : parsed.elements) {
      if ((element.name != "text" || element.text != label) && element.name != "tspan") continue;
      if (element.name == "text") ++legend_texts;
      if (element.attributes.count("x") == 0 || element.attributes.count("text-anchor")) continue;
      const double start = std::stod(element.attributes.at("x"));
      const double longest = element.name == "tspan" ? estimated_text_width(element.text, 12)
                                                     : estimated_text_width(label.substr(0, 40), 12);
      EXPECT_LE(start + longest, width) << label;
    }
    EXPECT_EQ(legend_texts, 2) << label;  // the reference line's and the series'
    for (const auto* text : parsed.named("text"))
      if (text->attributes.count("y")) {
        EXPECT_LE(std::stod(text->attributes.at("y")), height);
      }
  }
  // The estimate grows with the text and is at least the width of a digit per character.
  EXPECT_GE(estimated_text_width("0123456789", 12), 10 * 0.56 * 12);
  EXPECT_DOUBLE_EQ(estimated_text_width("ηη", 12), estimated_text_width("ab", 12));  // characters, not bytes
}

TEST(SvgPlotLegend, UnlabelledSeriesAndLinesGetNoLegendEntry) {
  PlotOptions options = autocorrelation_plot_options("R");  // its zero line has no label
  const ParsedSvg parsed = render_and_parse(
      {{"", {0, 1, 2}, {1, 0.5, 0.2}, {}, {}, false}, {"T", {0, 1, 2}, {1, 0.3, 0.1}, {}, {}, true}}, options);
  const Element& frame = frame_of(parsed);
  const double right = std::stod(frame.attributes.at("x")) + std::stod(frame.attributes.at("width"));
  int legend_lines = 0;
  for (const auto* line : parsed.named("line")) legend_lines += std::stod(line->attributes.at("x1")) > right;
  EXPECT_EQ(legend_lines, 1);  // T's
  for (const auto& text : parsed.texts()) EXPECT_NE(text, "");
}

// Two series along the same path stay distinguishable: different colours, marker shapes and marked points.
TEST(SvgPlot, OverlappingSeriesCarryDifferentMarkersAtDifferentPoints) {
  std::vector<double> x(200), y(200);
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = static_cast<double>(k), y[k] = std::sin(0.05 * k);
  const ParsedSvg parsed =
      render_and_parse({{"first", x, y, {}, {}, false}, {"second", x, y, {}, {}, false}}, PlotOptions{});
  const auto first = parsed.named("circle"), second = parsed.named("rect");
  // Markers on the data (the legend adds one each); about ten per series on a long one.
  ASSERT_GE(first.size(), 5U);
  ASSERT_LE(first.size(), 12U);
  ASSERT_GE(second.size(), 5U + 2U);  // + the background and the frame
  std::vector<std::pair<double, double>> first_centres;
  for (const auto* circle : first)
    first_centres.emplace_back(std::stod(circle->attributes.at("cx")), std::stod(circle->attributes.at("cy")));
  for (const auto* rect : second) {
    if (!rect->attributes.count("x") || rect->attributes.count("stroke")) continue;  // background, frame
    const double cx = std::stod(rect->attributes.at("x")) + std::stod(rect->attributes.at("width")) / 2;
    const double cy = std::stod(rect->attributes.at("y")) + std::stod(rect->attributes.at("height")) / 2;
    for (const auto& [x0, y0] : first_centres) EXPECT_GT(std::hypot(cx - x0, cy - y0), 1.0);
  }
}

TEST(SvgPlot, WriteStoresTheRenderedText) {
  const testing::TemporaryDirectory directory;
  const std::vector<PlotSeries> series = {{"a", {0, 1}, {2, 3}, {}, {}, false}};
  PlotOptions options;
  options.title = "written";
  write_svg_plot(directory / "plot.svg", series, options);
  std::ifstream in(directory / "plot.svg", std::ios::binary);
  const std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(written, render_svg_plot(series, options));
}

}  // namespace
}  // namespace rbmix
