#pragma once
// rbmix reports bad input (wrong shapes, malformed files, NaN parameters, impossible options) by throwing
// InputError with a message that names the input and says what is wrong. The CLI turns it into a non-zero exit.
#include <stdexcept>
#include <string>

namespace rbmix {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws InputError(what) unless condition holds.
inline void require(bool condition, const std::string& what) {
  if (!condition) throw InputError(what);
}

}  // namespace rbmix
