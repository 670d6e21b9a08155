#pragma once
// The outcome of one check of rbmix::verify: passed or failed, with a message that says what was checked and, on
// failure, what broke, where and by how much, in words a rule's author can act on. Every check returns one, so the
// numeric checks need no test framework; gtest_adapter.hpp turns it into a GoogleTest assertion, and rapidcheck's
// RC_ASSERT prints it through operator<<.
#include <ostream>
#include <string>
#include <utility>

namespace rbmix::verify {

struct VerificationResult {
  bool passed = true;
  std::string message;

  static VerificationResult pass(std::string message = {}) { return {true, std::move(message)}; }
  static VerificationResult fail(std::string message) { return {false, std::move(message)}; }
  explicit operator bool() const { return passed; }
};

inline std::ostream& operator<<(std::ostream& out, const VerificationResult& result) {
  return out << (result.passed ? "passed" : "FAILED") << (result.message.empty() ? "" : ": ") << result.message;
}

}  // namespace rbmix::verify
