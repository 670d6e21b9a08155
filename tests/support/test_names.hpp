#pragma once
// Readable, stable names for parameterised tests: GoogleTest's default prints the bytes of the parameter (and
// pointer addresses), which change from build to build and tell a reader nothing.
#include <cctype>
#include <string>

namespace rbmix::testing {

// Keeps letters and digits and turns everything else into '_' (GoogleTest names allow nothing more): "mix:0.5" →
// "mix_0_5".
inline std::string test_name(std::string text) {
  for (char& c : text)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return text;
}

}  // namespace rbmix::testing
