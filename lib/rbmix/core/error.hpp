#pragma once
// rbmix reports bad input (wrong shapes, malformed files, NaN parameters, impossible options) by throwing
// InputError with a message that names the input and says what is wrong. The CLI turns it into a non-zero exit.
#include <concepts>
#include <stdexcept>
#include <string>

namespace rbmix {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws InputError(what) unless condition holds. The overloads keep a passing check free of allocations, so
// checks may stand on hot paths: a literal is not copied into a std::string, and a message built from parts is
// passed as a callable returning it, which runs only when the check fails:
//   require(rows == expected, [&] { return "W has " + std::to_string(rows) + " rows"; });
inline void require(bool condition, const char* what) {
  if (!condition) throw InputError(what);
}
inline void require(bool condition, const std::string& what) {
  if (!condition) throw InputError(what);
}
template <std::invocable Message>
void require(bool condition, Message&& message) {
  if (!condition) throw InputError(std::string(message()));
}

}  // namespace rbmix
