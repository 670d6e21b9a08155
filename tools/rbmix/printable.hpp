#pragma once
// How the command line prints a message that may hold the user's input.
#include <cstdio>
#include <string>
#include <string_view>

namespace rbmix::cli {

// A message as printed: control characters from the input (a file name, a CSV field) shown as \xNN, so that they
// cannot move the cursor, clear the screen or recolour the terminal; a line break stays a line break.
inline std::string printable(std::string_view message) {
  std::string shown;
  for (const char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7f) {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      shown += escaped;
    } else {
      shown += c;
    }
  }
  return shown;
}

}  // namespace rbmix::cli
