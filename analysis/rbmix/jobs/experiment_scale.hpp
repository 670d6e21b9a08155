#pragma once
// The two scales every experiment runs at: `paper`, the published setting, and `smoke`, the same computation made
// small enough to run in seconds (ctest runs every experiment's core at smoke scale).
#include <string>
#include <string_view>

namespace rbmix::experiments {

enum class Scale { smoke, paper };

// "smoke" or "paper"; anything else throws InputError naming --scale.
Scale parse_scale(std::string_view text);
std::string to_string(Scale scale);

}  // namespace rbmix::experiments
