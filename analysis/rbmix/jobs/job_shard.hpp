#pragma once
// JobShard: the share of an experiment's jobs one process runs when a grid is split without MPI (a batch
// scheduler's job array, several terminals): shard I of N runs the jobs whose index is I − 1 modulo N, so the
// shares are disjoint, cover every job, and mix cheap and costly jobs alike.
#include <cstddef>
#include <string>
#include <string_view>

namespace rbmix::experiments {

struct JobShard {
  std::size_t number = 1;  // I, 1-based
  std::size_t count = 1;   // N; 1: every job

  bool whole() const { return count == 1; }
  bool holds(std::size_t job) const { return job % count == number - 1; }
  std::string to_string() const { return std::to_string(number) + "/" + std::to_string(count); }
};

// "I/N" with 1 ≤ I ≤ N; anything else throws InputError naming --shard.
JobShard parse_shard(std::string_view text);

}  // namespace rbmix::experiments
