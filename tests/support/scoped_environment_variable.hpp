#pragma once
// An environment variable set (or unset) for a test's scope and restored at its end: how a test chooses what a
// user chooses through the environment (OMP_NUM_THREADS keeps the thread team as set, thread_count_tuner.hpp).
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace rbmix::testing {

class ScopedEnvironmentVariable {
 public:
  // value: the variable's value in the scope; nullopt: unset in the scope.
  ScopedEnvironmentVariable(std::string name, const std::optional<std::string>& value) : name_(std::move(name)) {
    if (const char* saved = std::getenv(name_.c_str())) saved_ = saved;
    if (value)
      ::setenv(name_.c_str(), value->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }
  ~ScopedEnvironmentVariable() {
    if (saved_)
      ::setenv(name_.c_str(), saved_->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }
  ScopedEnvironmentVariable(const ScopedEnvironmentVariable&) = delete;
  ScopedEnvironmentVariable& operator=(const ScopedEnvironmentVariable&) = delete;

 private:
  std::string name_;
  std::optional<std::string> saved_;
};

}  // namespace rbmix::testing
