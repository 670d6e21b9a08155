#include "rbmix/jobs/result_directory.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "rbmix/core/error.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix::experiments {
namespace {

// run.json carries the record and lists every file written, itself last.
TEST(ResultDirectory, RunRecordListsTheFilesWritten) {
  const testing::TemporaryDirectory temporary;
  ResultDirectory out(temporary.path() / "results" / "nested");
  Table table({"x"});
  table.add_row({1.0});
  out.write_csv("values.csv", table);
  out.write_svg("plot.svg", {{"line", {1.0, 2.0}, {3.0, 4.0}, {}, {}, false}}, {});
  out.write_png("picture.png", tile_images(MatrixF::Ones(2, 4), 2, 2, {2}));
  out.write_run_record({{"command", "test"}});
  const std::vector<std::string> expected{"values.csv", "plot.svg", "picture.png", "run.json"};
  EXPECT_EQ(out.files(), expected);
  for (const auto& name : expected) EXPECT_TRUE(std::filesystem::is_regular_file(out.path() / name)) << name;
  std::ifstream file(out.path() / "run.json");
  const nlohmann::json record = nlohmann::json::parse(file);
  EXPECT_EQ(record["command"], "test");
  EXPECT_EQ(record["files"].get<std::vector<std::string>>(), expected);
}

TEST(ResultDirectory, RefusesAPathThatIsAFile) {
  const testing::TemporaryDirectory temporary;
  std::ofstream(temporary.path() / "occupied") << "a file";
  EXPECT_THROW(ResultDirectory(temporary.path() / "occupied"), InputError);
}

}  // namespace
}  // namespace rbmix::experiments
