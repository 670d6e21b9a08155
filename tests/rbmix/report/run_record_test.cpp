#include "rbmix/report/run_record.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <omp.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <limits>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "rbmix/core/error.hpp"
#include "support/input_error_message.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

using testing::input_error_message;

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::set<std::string> entries_of(const std::filesystem::path& directory) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(directory))
    names.insert(entry.path().filename().string());
  return names;
}

// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ", read as UTC.
std::time_t parse_utc(const std::string& text) {
  std::tm parts{};
  std::istringstream in(text);
  in >> std::get_time(&parts, "%Y-%m-%dT%H:%M:%SZ");
  EXPECT_FALSE(in.fail()) << text;
  return timegm(&parts);
}

const nlohmann::json kConfiguration = {{"algorithm", "pcd"}, {"learning_rate", 0.01}, {"hidden", 16}};

TEST(MakeRunRecord, HoldsExactlyTheDocumentedFields) {
  const nlohmann::json record = make_run_record("rbmix train --algo pcd", kConfiguration, 7);
  std::set<std::string> keys;
  for (const auto& [key, value] : record.items()) keys.insert(key);
  EXPECT_EQ(keys,
            (std::set<std::string>{"rbmix_version", "command", "seed", "configuration", "threads", "started_utc"}));
  EXPECT_EQ(record.at("command"), "rbmix train --algo pcd");
  EXPECT_EQ(record.at("configuration"), kConfiguration);
  EXPECT_EQ(record.at("seed").get<std::uint64_t>(), 7U);
  EXPECT_EQ(record.at("rbmix_version"), RBMIX_VERSION);
  EXPECT_TRUE(std::regex_match(record.at("rbmix_version").get<std::string>(), std::regex(R"(\d+\.\d+\.\d+)")));
}

TEST(MakeRunRecord, ThreadsAreTheOpenMpThreadCount) {
  const int saved = omp_get_max_threads();
  for (int threads : {1, 3}) {
    omp_set_num_threads(threads);
    EXPECT_EQ(make_run_record("x", {}, 1).at("threads"), threads);
  }
  omp_set_num_threads(saved);
}

// The bounds come from the clock the record reads (system_clock). std::time can lag it across a second boundary
// (Linux serves it from a coarse clock), which made this test fail now and then.
TEST(MakeRunRecord, StartTimeIsNowInUtc) {
  const auto now = [] { return std::chrono::system_clock::to_time_t(std::chrono::system_clock::now()); };
  const std::time_t before = now();
  const std::string started = make_run_record("x", {}, 1).at("started_utc");
  const std::time_t after = now();
  ASSERT_TRUE(std::regex_match(started, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"))) << started;
  EXPECT_GE(parse_utc(started), before);
  EXPECT_LE(parse_utc(started), after);
}

// A seed above 2^53 must come back exactly from run.json, as an integer and not through a double.
TEST(MakeRunRecord, LargestSeedSurvivesTheJsonFile) {
  const testing::TemporaryDirectory directory;
  const std::uint64_t seed = std::numeric_limits<std::uint64_t>::max();
  write_json_file(directory / "run.json", make_run_record("x", kConfiguration, seed));
  const nlohmann::json read = nlohmann::json::parse(read_file(directory / "run.json"));
  EXPECT_EQ(read.at("seed").get<std::uint64_t>(), seed);
  EXPECT_EQ(read.at("configuration"), kConfiguration);
}

TEST(PrepareOutputDirectory, CreatesMissingParentsAndReturnsThePath) {
  const testing::TemporaryDirectory directory;
  const std::filesystem::path nested = directory / "a/b/c";
  EXPECT_EQ(prepare_output_directory(nested), nested);
  EXPECT_TRUE(std::filesystem::is_directory(nested));
  EXPECT_EQ(prepare_output_directory(nested), nested);  // an existing directory is fine
}

TEST(PrepareOutputDirectory, RefusesAFileOfThatName) {
  const testing::TemporaryDirectory directory;
  const std::filesystem::path file = directory / "results";
  std::ofstream(file) << "not a directory";
  EXPECT_THAT(input_error_message([&] { prepare_output_directory(file); }),
              AllOf(HasSubstr("output directory '" + file.string() + "'"), HasSubstr("cannot be created")));
  EXPECT_EQ(read_file(file), "not a directory");  // left alone
}

TEST(PrepareOutputDirectory, RefusesAPathThroughAFile) {
  const testing::TemporaryDirectory directory;
  std::ofstream(directory / "file") << "x";
  const std::filesystem::path below_file = directory / "file/results";
  EXPECT_THAT(input_error_message([&] { prepare_output_directory(below_file); }),
              AllOf(HasSubstr("output directory '" + below_file.string() + "'"), HasSubstr("cannot be created")));
}

// The record is written indented, ends with a newline, and leaves nothing else behind in the directory.
TEST(WriteJsonFile, WritesTheValueAndNothingElse) {
  const testing::TemporaryDirectory directory;
  write_json_file(directory / "run.json", kConfiguration);
  EXPECT_EQ(read_file(directory / "run.json"), kConfiguration.dump(2) + "\n");
  EXPECT_EQ(entries_of(directory.path()), std::set<std::string>{"run.json"});
}

}  // namespace
}  // namespace rbmix
