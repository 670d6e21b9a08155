#pragma once
// The message of the InputError that `action` throws, so a test can check that a refusal names its input; a test
// failure (and "") when nothing is thrown.
#include <gtest/gtest.h>

#include <string>

#include "rbmix/core/error.hpp"

namespace rbmix::testing {

template <typename Action>
std::string input_error_message(Action action) {
  try {
    action();
  } catch (const InputError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no InputError thrown";
  return "";
}

}  // namespace rbmix::testing
