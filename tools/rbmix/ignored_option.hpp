#pragma once
// Refusing an option the chosen algorithm would ignore, the same way in every command that takes --algo (train,
// mrf train): a typo in --algo, or a setting meant for another algorithm, then stops the run instead of silently
// dropping the setting.
#include <CLI/CLI.hpp>
#include <string>

#include "rbmix/core/error.hpp"

namespace rbmix::cli {

// Throws InputError naming `option` if it was given on `command` while it does not apply to `algorithm` (applies:
// whether it does; applies_to: the algorithms it does apply to, for the message).
inline void refuse_ignored_option(const CLI::App& command, const std::string& algorithm, bool applies,
                                  const std::string& option, const std::string& applies_to) {
  require(applies || command.count(option) == 0,
          option + " applies to " + applies_to + " only; --algo " + algorithm + " would ignore it");
}

}  // namespace rbmix::cli
