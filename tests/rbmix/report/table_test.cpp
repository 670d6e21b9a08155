#include "rbmix/report/table.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <variant>

#include <gtest/gtest.h>

#include "rbmix/core/error.hpp"
#include "rbmix/report/svg_plot.hpp"

namespace rbmix {
namespace {

TEST(Table, WritesCsvThatReadsBackExactly) {
  Table table({"operator", "slem", "count"});
  table.add_row({std::string("gibbs"), 0.1 + 0.2, 7LL});
  table.add_row({std::string("mix:0.5, tempered"), -1.0 / 3.0, 0LL});
  const std::string csv = table.to_csv();
  EXPECT_EQ(csv,
            "operator,slem,count\n"
            "gibbs,0.30000000000000004,7\n"
            "\"mix:0.5, tempered\",-0.3333333333333333,0\n");
  EXPECT_EQ(std::stod("0.30000000000000004"), 0.1 + 0.2);
  EXPECT_EQ(std::stod("-0.3333333333333333"), -1.0 / 3.0);
  EXPECT_THROW(table.add_row({1.0}), InputError);
}

// Tidy CSV: numbers as short as exactness allows, missing values as empty fields (never "-" or "nan" in a numeric
// column), booleans as true/false.
TEST(Table, WritesTidyCsv) {
  Table table({"name", "eta", "sweeps", "trusted", "tau"});
  table.add_row({std::string("gibbs"), 0.1, 10LL, true, 2.0});
  table.add_row({std::string("herding"), 1e-7, Table::missing(), false, std::nan("")});
  table.add_row({Table::missing(), 1e21, -3LL, true, -std::numeric_limits<double>::infinity()});
  EXPECT_EQ(table.to_csv(),
            "name,eta,sweeps,trusted,tau\n"
            "gibbs,0.1,10,true,2\n"
            "herding,1e-07,,false,\n"
            ",1e+21,-3,true,-inf\n");
  // A string literal is text, not a bool (the C++20 variant rules pick the non-narrowing alternative).
  EXPECT_TRUE(std::holds_alternative<std::string>(Table::Cell(std::string("yes"))));
  EXPECT_TRUE(std::holds_alternative<bool>(Table::Cell(true)));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(Table::Cell()));
}

TEST(Table, PrintsAlignedColumnsWithADashForMissingValues) {
  Table table({"name", "tau"});
  table.add_row({std::string("gibbs"), 1.0 / 3.0});
  table.add_row({std::string("flip"), Table::missing()});
  std::ostringstream out;
  table.print(out, 3);
  EXPECT_EQ(out.str(),
            " name    tau\n"
            "gibbs  0.333\n"
            " flip      -\n");
}

TEST(SvgPlot, RendersEverySeriesAndRejectsMismatchedLengths) {
  PlotSeries first{"G", {1, 2, 3}, {0.5, 0.4, 0.3}, {}, {}, false};
  PlotSeries second{"T", {1, 2, 3}, {0.6, 0.2, 0.1}, {0.5, 0.1, 0.0}, {0.7, 0.3, 0.2}, true};
  const std::string svg = render_svg_plot({first, second}, {"SLEM", "c", "share", false, {}, {}, {{"best", 0.9}}});
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find(">G</text>"), std::string::npos);
  EXPECT_NE(svg.find(">T</text>"), std::string::npos);
  EXPECT_NE(svg.find(">best</text>"), std::string::npos);
  EXPECT_NE(svg.find("<polygon"), std::string::npos);
  PlotSeries broken{"bad", {1, 2}, {1}, {}, {}, false};
  EXPECT_THROW(render_svg_plot({broken}, {}), InputError);
  PlotSeries negative{"neg", {-1, 2}, {1, 2}, {}, {}, false};
  PlotOptions log_axis;
  log_axis.log_x = true;
  EXPECT_THROW(render_svg_plot({negative}, log_axis), InputError);
}

}  // namespace
}  // namespace rbmix
