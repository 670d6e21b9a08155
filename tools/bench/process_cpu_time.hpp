#pragma once
// The CPU time of this process, all threads together: the benchmarks that set a step's cost against its parts read
// it beside the wall clock, so that a ratio measured on a busy machine still compares work with work.
#include <ctime>

namespace rbmix_bench {

inline double process_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

}  // namespace rbmix_bench
