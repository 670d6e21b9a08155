#include "rbmix/jobs/experiment_scale.hpp"

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {

Scale parse_scale(std::string_view text) {
  if (text == "smoke") return Scale::smoke;
  if (text == "paper") return Scale::paper;
  throw InputError("--scale must be smoke or paper, got '" + std::string(text) + "'");
}

std::string to_string(Scale scale) { return scale == Scale::paper ? "paper" : "smoke"; }

}  // namespace rbmix::experiments
