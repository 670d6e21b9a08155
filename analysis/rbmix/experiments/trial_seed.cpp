#include "rbmix/experiments/trial_seed.hpp"

#include "rbmix/random/random_stream.hpp"

namespace rbmix::experiments {

std::uint64_t trial_seed(std::uint64_t seed, std::uint64_t index) {
  RandomStream stream(seed, index, StreamDomain::experiment);
  return stream();
}

}  // namespace rbmix::experiments
