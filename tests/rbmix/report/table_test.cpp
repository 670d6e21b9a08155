#include "rbmix/report/table.hpp"

#include <sstream>

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
            "\"mix:0.5, tempered\",-0.33333333333333331,0\n");
  EXPECT_EQ(std::stod("0.30000000000000004"), 0.1 + 0.2);
  EXPECT_THROW(table.add_row({1.0}), InputError);
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
