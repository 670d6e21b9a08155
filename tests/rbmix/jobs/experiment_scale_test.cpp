#include "rbmix/jobs/experiment_scale.hpp"

#include <gtest/gtest.h>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {
namespace {

TEST(ExperimentScale, NamesRoundTripAndOthersAreRefused) {
  for (const Scale scale : {Scale::smoke, Scale::paper}) EXPECT_EQ(parse_scale(to_string(scale)), scale);
  try {
    parse_scale("huge");
    FAIL() << "no exception";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("--scale"), std::string::npos);
  }
}

}  // namespace
}  // namespace rbmix::experiments
