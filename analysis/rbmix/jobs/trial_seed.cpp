#include "rbmix/jobs/trial_seed.hpp"

#include "rbmix/random/random_stream.hpp"

namespace rbmix::experiments {

std::uint64_t trial_seed(std::uint64_t seed, std::uint64_t index) {
  RandomStream stream(seed, index, StreamDomain::experiment);
  return stream();
}

std::uint64_t purpose_seed(std::uint64_t seed, std::uint64_t index, SeedPurpose purpose) {
  return trial_seed(trial_seed(seed, index), static_cast<std::uint64_t>(purpose));
}

}  // namespace rbmix::experiments
