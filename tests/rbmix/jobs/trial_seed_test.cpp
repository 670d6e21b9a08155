#include "rbmix/jobs/trial_seed.hpp"

#include <gtest/gtest.h>

#include <set>

#include "rbmix/random/random_stream.hpp"

namespace rbmix::experiments {
namespace {

// The seed is the first draw of the experiment stream of (seed, index): a pure function of both.
TEST(TrialSeed, IsTheFirstDrawOfTheTrialsExperimentStream) {
  RandomStream stream(9, 4, StreamDomain::experiment);
  EXPECT_EQ(trial_seed(9, 4), stream());
  EXPECT_EQ(trial_seed(9, 4), trial_seed(9, 4));
}

// Nearby seeds and indices give distinct seeds (a sum seed + index would repeat seed 1 trial 1 as seed 2 trial 0).
TEST(TrialSeed, NearbySeedsAndIndicesDoNotCollide) {
  std::set<std::uint64_t> seeds;
  for (std::uint64_t seed = 0; seed < 20; ++seed)
    for (std::uint64_t index = 0; index < 20; ++index) seeds.insert(trial_seed(seed, index));
  EXPECT_EQ(seeds.size(), 400u);
}

}  // namespace
}  // namespace rbmix::experiments
