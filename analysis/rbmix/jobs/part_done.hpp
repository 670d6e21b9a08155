#pragma once
// OrPartDone<T>: what a phase of jobs (run_jobs, job_runner.hpp) and an experiment run on a grid give back: either
// their result T, or PartDone, the word that this process's part is done while the whole is not: a shard whose share
// of a phase is journaled while the phase is not whole (the next phase may need all of it; job_grid.hpp), or an MPI
// worker rank when rank 0 cannot go on (rank 0 says why). That is a normal end, not an error: the code between two
// phases returns the PartDone it got (`if (!models) return models.part_done();`), and the front-end prints its
// message, if any, and exits with status 0.
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace rbmix::experiments {

struct PartDone {
  std::string message;  // what the user is told ("shard 1/2: 3 of 6 jobs of phase 0 journaled in ..."); empty: nothing
};

template <typename T>
class OrPartDone {
 public:
  // Implicit both ways, so that a function returns its result or the PartDone it met as it is.
  OrPartDone(T value) : value_(std::move(value)) {}
  OrPartDone(PartDone part_done) : part_done_(std::move(part_done)) {}

  // Whether the result is here (false: this process's part is done).
  bool whole() const { return value_.has_value(); }
  explicit operator bool() const { return whole(); }

  // The result; std::logic_error where there is none (a caller that runs without a grid or on one whole process
  // never meets a PartDone, so meeting one there is a bug, named with the part's message).
  T& value() & {
    require_whole();
    return *value_;
  }
  const T& value() const& {
    require_whole();
    return *value_;
  }
  T&& value() && {
    require_whole();
    return std::move(*value_);
  }

  // Why there is no result (meaningful where !whole()).
  const PartDone& part_done() const { return part_done_; }

 private:
  void require_whole() const {
    if (!value_) throw std::logic_error("a result was asked of a process whose part is done: " + part_done_.message);
  }

  std::optional<T> value_;
  PartDone part_done_;
};

}  // namespace rbmix::experiments
