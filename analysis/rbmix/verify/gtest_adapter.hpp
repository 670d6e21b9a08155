#pragma once
// GoogleTest adapter of rbmix::verify (target rbmix::verify_gtest): a VerificationResult as a GoogleTest assertion,
// so that a failed check reports its message where the test failed.
//   EXPECT_TRUE(rbmix::verify::as_assertion(rbmix::verify::check_rule_contract_on_grid(MyRule{})));
//   RBMIX_EXPECT_VERIFIED(rbmix::verify::check_operator_invariants(rbm, MyRule{}));
// In rapidcheck properties, RC_ASSERT(result) prints the result and its message on failure.
#include <gtest/gtest.h>

#include "rbmix/verify/verification_result.hpp"

namespace rbmix::verify {

inline ::testing::AssertionResult as_assertion(const VerificationResult& result) {
  return (result.passed ? ::testing::AssertionSuccess() : ::testing::AssertionFailure()) << result.message;
}

}  // namespace rbmix::verify

#define RBMIX_EXPECT_VERIFIED(result) EXPECT_TRUE(::rbmix::verify::as_assertion(result))
#define RBMIX_ASSERT_VERIFIED(result) ASSERT_TRUE(::rbmix::verify::as_assertion(result))
