#pragma once
// The grid whose journal the grid_journal fuzz target reads: the seed corpus writer journals a job of it, so that
// the seeds pass the identity check and reach the checks behind it.
#include <nlohmann/json.hpp>

namespace rbmix::fuzz {

inline nlohmann::json grid_journal_identity() {
  return {{"arguments", {"slem-sweep", "--count", "2"}}, {"seed", 1}, {"rbmix_version", "fuzz"}};
}

// The job and the phase of the entry a seed holds.
inline constexpr std::size_t grid_journal_job = 3;
inline constexpr std::size_t grid_journal_phase = 0;

}  // namespace rbmix::fuzz
