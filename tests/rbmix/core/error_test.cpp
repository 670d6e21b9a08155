#include "rbmix/core/error.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace rbmix {
namespace {

TEST(Require, DoesNothingWhenTheConditionHolds) { EXPECT_NO_THROW(require(true, "never shown")); }

TEST(Require, ThrowsInputErrorCarryingTheMessageVerbatim) {
  try {
    require(false, "data file 'x.npy': expected 2 dimensions, found 3");
    FAIL() << "require(false, ...) returned";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()), "data file 'x.npy': expected 2 dimensions, found 3");
  }
}

// Callers that only know the standard hierarchy (the CLI's last-resort handler) still catch it, with its message.
TEST(InputError, IsARuntimeError) {
  EXPECT_THROW(require(false, "anything"), std::runtime_error);
  const InputError error("the message");
  const std::runtime_error& as_runtime_error = error;
  EXPECT_EQ(std::string(as_runtime_error.what()), "the message");
}

}  // namespace
}  // namespace rbmix
