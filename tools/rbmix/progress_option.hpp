#pragma once
// --progress and --quiet, the same in every long command: a progress line on stderr (report/progress.hpp) is written
// on a terminal by default, also elsewhere with --progress, and never with --quiet.
#include <CLI/CLI.hpp>

#include "rbmix/report/progress.hpp"

namespace rbmix::cli {

struct ProgressFlags {
  bool always = false;
  bool quiet = false;

  ProgressMode mode() const {
    if (quiet) return ProgressMode::never;
    return always ? ProgressMode::always : ProgressMode::automatic;
  }
};

inline void add_progress_options(CLI::App& command, ProgressFlags& flags) {
  auto* progress = command.add_flag("--progress", flags.always,
                                    "write the progress line on stderr even when it is not a terminal (a log)");
  command.add_flag("--quiet", flags.quiet, "no progress line")->excludes(progress);
}

}  // namespace rbmix::cli
