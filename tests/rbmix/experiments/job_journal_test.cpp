#include "rbmix/experiments/job_journal.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "rbmix/core/error.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix::experiments {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// The message of the InputError `read` throws; empty if it throws none.
std::string refusal(const JobJournal& journal) {
  try {
    journal.read();
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(JobJournal, ReadsBackWhatItRecordedAndIgnoresUnfinishedWrites) {
  rbmix::testing::TemporaryDirectory directory;
  const JobJournal journal(directory.path(), 1);
  EXPECT_TRUE(journal.read().empty());
  journal.record(3, {true, "{\"x\":\"0x1p+0\"}"});
  journal.record(1234567, {false, "--learning-rate must be positive"});
  write_text(journal.job_file(5).string() + ".partial", "{\"trunc");
  const auto jobs = journal.read();
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_TRUE(jobs.at(3).succeeded);
  EXPECT_EQ(jobs.at(3).text, "{\"x\":\"0x1p+0\"}");
  EXPECT_FALSE(jobs.at(1234567).succeeded);
  EXPECT_EQ(jobs.at(1234567).text, "--learning-rate must be positive");
  EXPECT_EQ(journal.path(), directory.path() / "journal" / "phase-1");
}

TEST(JobJournal, RefusesADamagedEntryNamingItsFile) {
  rbmix::testing::TemporaryDirectory directory;
  const JobJournal journal(directory.path(), 0);
  journal.record(7, {true, "{\"slem\":\"0x1.8p-1\"}"});
  const auto file = journal.job_file(7);
  const std::string intact = read_text(file);
  const std::string named_damaged = file.string() + "' is damaged";

  std::string edited = intact;
  edited.replace(edited.find("0x1.8p-1"), 8, "0x1.9p-1");
  write_text(file, edited);
  EXPECT_NE(refusal(journal).find(named_damaged + ": checksum mismatch"), std::string::npos) << refusal(journal);

  write_text(file, intact.substr(0, intact.size() / 2));
  EXPECT_NE(refusal(journal).find(named_damaged), std::string::npos) << refusal(journal);

  write_text(file, intact);
  std::filesystem::rename(file, journal.job_file(8));
  EXPECT_NE(refusal(journal).find("it holds another job"), std::string::npos) << refusal(journal);
}

TEST(JobJournal, ChecksumIsFnv1a) {
  // The published FNV-1a 64-bit test vectors.
  EXPECT_EQ(journal_checksum(""), "cbf29ce484222325");
  EXPECT_EQ(journal_checksum("a"), "af63dc4c8601ec8c");
}

}  // namespace
}  // namespace rbmix::experiments
