#pragma once
// The one way an experiment derives the seed of a trial (or of any job) from its own seed.
#include <cstdint>

namespace rbmix::experiments {

// The seed of trial `index` of an experiment seeded with `seed`: the first draw of RandomStream(seed, index,
// experiment), so that nearby seeds and indices give unrelated seeds (a sum such as seed + index would make seed 1
// trial 1 repeat seed 2 trial 0). Runs that share an index share a seed: settings can be paired by trial (G against
// T from the same initial weights).
std::uint64_t trial_seed(std::uint64_t seed, std::uint64_t index);

}  // namespace rbmix::experiments
