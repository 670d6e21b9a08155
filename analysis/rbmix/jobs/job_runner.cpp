#include "rbmix/jobs/job_runner.hpp"

#include <omp.h>

#include <cstdint>
#include <exception>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {

void JobRunner::run(std::size_t count, const std::function<void(std::size_t index)>& job) const {
  std::vector<std::exception_ptr> failures(count);
  const int team = threads_ > 0 ? threads_ : omp_get_max_threads();
  const auto jobs = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(dynamic) num_threads(team)
  for (std::int64_t index = 0; index < jobs; ++index) {
    try {
      // Jobs are small next to their number: their own OpenMP regions would cost more than they save.
      omp_set_num_threads(1);
      job(static_cast<std::size_t>(index));
    } catch (...) {
      failures[static_cast<std::size_t>(index)] = std::current_exception();
    }
  }
  for (const auto& failure : failures)
    if (failure) std::rethrow_exception(failure);
}

}  // namespace rbmix::experiments
