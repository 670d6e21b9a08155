#include "rbmix/jobs/part_done.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace rbmix::experiments {
namespace {

// What the code between two phases does with a phase's outcome: returns the PartDone it met as it is.
OrPartDone<int> sum_or_part_done(const OrPartDone<std::vector<int>>& phase) {
  if (!phase) return phase.part_done();
  int sum = 0;
  for (const int value : phase.value()) sum += value;
  return sum;
}

TEST(OrPartDone, AWholeResultIsHandedOn) {
  const OrPartDone<int> sum = sum_or_part_done(std::vector<int>{1, 2, 3});
  ASSERT_TRUE(sum.whole());
  EXPECT_EQ(sum.value(), 6);
}

TEST(OrPartDone, APartDoneTravelsUpWithItsMessage) {
  const OrPartDone<int> sum = sum_or_part_done(PartDone{"shard 1/2: 3 of 6 jobs of phase 0 journaled"});
  ASSERT_FALSE(sum.whole());
  EXPECT_FALSE(static_cast<bool>(sum));
  EXPECT_EQ(sum.part_done().message, "shard 1/2: 3 of 6 jobs of phase 0 journaled");
}

// A caller that cannot meet a PartDone (no grid) asks for the value: meeting one there is a bug, and says so.
TEST(OrPartDone, AskingAPartDoneForItsValueIsRefused) {
  const OrPartDone<int> part = PartDone{"shard 2/2: 0 of 4 jobs of phase 1 journaled"};
  try {
    static_cast<void>(part.value());
    FAIL() << "no logic_error";
  } catch (const std::logic_error& error) {
    EXPECT_NE(std::string(error.what()).find("shard 2/2: 0 of 4 jobs"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace rbmix::experiments
