#pragma once
// The seed plan of every experiment: each random stream an experiment uses is derived from (experiment seed, job,
// purpose), and no stream serves two purposes.
#include <cstdint>

namespace rbmix::experiments {

// The seed of trial `index` of an experiment seeded with `seed`: the first draw of RandomStream(seed, index,
// experiment), so that nearby seeds and indices give unrelated seeds (a sum such as seed + index would make seed 1
// trial 1 repeat seed 2 trial 0). Runs that share an index share a seed: settings can be paired by trial (G against
// T from the same initial weights). A job trains with this seed.
std::uint64_t trial_seed(std::uint64_t seed, std::uint64_t index);

// What else a job draws for, each from its own seed. The chains of a trainer are RandomStream(training seed, chain,
// chains): a job that then samples its trained model with chains of its own must not seed them with the training
// seed, or its first chain would replay the first training chain's numbers.
enum class SeedPurpose : std::uint64_t {
  sampling = 1,         // chains that sample a trained or given model (energy traces, class changes, samplers)
  data = 2,             // data a job or an experiment generates (synthetic sets, subsets)
  start_selection = 3,  // the choice of chains' start states among data rows
  second_sampling = 4,  // a second, independent set of chains in the same job
  selection = 5,        // samples drawn to choose among candidates (a model, a setting)
};

// The seed of `purpose` in job `index`: trial_seed(trial_seed(seed, index), purpose), apart from the job's training
// seed and from every other job's seeds.
std::uint64_t purpose_seed(std::uint64_t seed, std::uint64_t index, SeedPurpose purpose);

}  // namespace rbmix::experiments
