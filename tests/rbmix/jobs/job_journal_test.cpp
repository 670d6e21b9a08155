#include "rbmix/jobs/job_journal.hpp"

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

// The grid a journal's entries belong to (job_grid.hpp's JobGridSettings::identity).
const nlohmann::json grid = {{"arguments", {"slem-sweep", "--count", "10"}}, {"seed", 1}, {"rbmix_version", "1.0"}};

// The message of the InputError `read` throws; empty if it throws none.
std::string refusal(const JobJournal& journal) {
  try {
    journal.read();
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

// The message of the InputError read_grid_record throws; empty if it throws none.
std::string grid_refusal(const std::filesystem::path& directory) {
  try {
    read_grid_record(directory);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(JobJournal, ReadsBackWhatItRecordedAndIgnoresUnfinishedWrites) {
  rbmix::testing::TemporaryDirectory directory;
  const JobJournal journal(directory.path(), 1, grid);
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
  const JobJournal journal(directory.path(), 0, grid);
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
  EXPECT_NE(refusal(journal).find("it holds job 7"), std::string::npos) << refusal(journal);
}

// The checksum covers the entry's grid, phase and job, not only its result: an entry of a run of the same grid with
// another seed, of another phase, or renamed with its job field edited is refused, naming its file.
TEST(JobJournal, RefusesAnEntryOfAnotherGridPhaseOrJob) {
  rbmix::testing::TemporaryDirectory directory;
  nlohmann::json other_seed = grid;
  other_seed["seed"] = 7;
  const JobJournal ours(directory.path(), 0, grid), theirs(directory.path() / "other", 0, other_seed);
  theirs.record(2, {true, "{\"slem\":\"0x1.8p-1\"}"});
  std::filesystem::create_directories(ours.path());
  std::filesystem::copy_file(theirs.job_file(2), ours.job_file(2));
  EXPECT_NE(refusal(ours).find(ours.job_file(2).string() + "' is damaged: it belongs to another grid (seed differ)"),
            std::string::npos)
      << refusal(ours);

  std::filesystem::remove(ours.job_file(2));
  const JobJournal next_phase(directory.path(), 1, grid);
  next_phase.record(2, {true, "{\"slem\":\"0x1.8p-1\"}"});
  std::filesystem::copy_file(next_phase.job_file(2), ours.job_file(2));
  EXPECT_NE(refusal(ours).find("' is damaged: it belongs to phase 1"), std::string::npos) << refusal(ours);

  std::filesystem::remove(ours.job_file(2));
  ours.record(3, {true, "{\"slem\":\"0x1.8p-1\"}"});
  std::string renamed = read_text(ours.job_file(3));
  renamed.replace(renamed.find("\"job\":3"), 7, "\"job\":2");
  std::filesystem::remove(ours.job_file(3));
  write_text(ours.job_file(2), renamed);
  EXPECT_NE(refusal(ours).find(ours.job_file(2).string() + "' is damaged: checksum mismatch"), std::string::npos)
      << refusal(ours);
}

TEST(JobJournal, RefusesAJobFileWhoseNameIsNoJobIndex) {
  rbmix::testing::TemporaryDirectory directory;
  const JobJournal journal(directory.path(), 0, grid);
  journal.record(1, {true, "{}"});
  const auto huge = journal.path() / "job-99999999999999999999999.json";
  std::filesystem::copy_file(journal.job_file(1), huge);
  EXPECT_NE(refusal(journal).find(huge.string() + "' is damaged"), std::string::npos) << refusal(journal);
}

// grid.json with a field of the wrong type is damaged like any other journal file: refused naming it.
TEST(JobJournal, RefusesAGridRecordWithAFieldOfTheWrongType) {
  rbmix::testing::TemporaryDirectory directory;
  const nlohmann::json intact = {{"identity", grid}, {"shard", "1/2"}, {"jobs", {60, 4}}};
  write_grid_record(directory.path(), intact);
  EXPECT_EQ(read_grid_record(directory.path()), intact);
  const std::string named = (journal_directory(directory.path()) / "grid.json").string() + "' is damaged";
  const std::pair<const char*, nlohmann::json> damages[] = {
      {"shard", nullptr}, {"shard", {1}}, {"shard", "3/2"}, {"jobs", "60"},
      {"jobs", {"60"}},   {"jobs", {-1}}, {"identity", 7},  {"identity", {{"seed", 1}}}};
  for (const auto& [key, value] : damages) {
    nlohmann::json damaged = intact;
    damaged[key] = value;
    write_grid_record(directory.path(), damaged);
    EXPECT_NE(grid_refusal(directory.path()).find(named), std::string::npos) << key << " = " << value.dump();
  }
  write_text(journal_directory(directory.path()) / "grid.json", "[1, 2]");
  EXPECT_NE(grid_refusal(directory.path()).find(named), std::string::npos);
}

// One checksum for every rbmix file: the journal's is the CRC-32 of zip members and checkpoints (io/crc32.hpp).
TEST(JobJournal, ChecksumIsCrc32) {
  // The CRC-32 check value of ISO 3309 and the empty string.
  EXPECT_EQ(journal_checksum("123456789"), "cbf43926");
  EXPECT_EQ(journal_checksum(""), "00000000");
}

}  // namespace
}  // namespace rbmix::experiments
