#include "rbmix/jobs/job_shard.hpp"

#include <gtest/gtest.h>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {
namespace {

TEST(JobShard, TheSharesOfASplitAreDisjointAndCoverEveryJob) {
  for (std::size_t count = 1; count <= 5; ++count)
    for (std::size_t job = 0; job < 23; ++job) {
      int holders = 0;
      for (std::size_t number = 1; number <= count; ++number) holders += JobShard{number, count}.holds(job);
      EXPECT_EQ(holders, 1) << "job " << job << " of a split in " << count;
    }
}

TEST(JobShard, ParsesIOfNAndRefusesTheRest) {
  const JobShard shard = parse_shard("2/8");
  EXPECT_EQ(shard.number, 2u);
  EXPECT_EQ(shard.count, 8u);
  EXPECT_EQ(shard.to_string(), "2/8");
  EXPECT_TRUE(parse_shard("1/1").whole());
  for (const char* bad : {"0/3", "4/3", "2", "2/", "/3", "a/3", "2/3x", "-1/3"}) {
    try {
      parse_shard(bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("--shard"), std::string::npos) << error.what();
    }
  }
}

}  // namespace
}  // namespace rbmix::experiments
