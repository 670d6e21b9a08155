#pragma once
// Subcommands register themselves: each tools/rbmix/**/*.cpp that adds a subcommand ends with
//   RBMIX_REGISTER_COMMAND("parent", attach_function);
// where parent is "" for a top-level command, or "data" / "experiment" for their children, and
// attach_function(CLI::App& parent) adds the subcommand and its callback. main.cpp attaches them in the order of
// the registering files' paths (the order static initialisation runs them in is not fixed), and `rbmix --help`
// lists them in that order.
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace rbmix::cli {

struct CommandRegistration {
  std::string parent;
  std::string source;  // file that registered it, to order registrations deterministically
  std::function<void(CLI::App&)> attach;
};

std::vector<CommandRegistration>& command_registry();

inline bool register_command(std::string parent, std::string source, std::function<void(CLI::App&)> attach) {
  command_registry().push_back({std::move(parent), std::move(source), std::move(attach)});
  return true;
}

}  // namespace rbmix::cli

#define RBMIX_CONCAT_INNER(a, b) a##b
#define RBMIX_CONCAT(a, b) RBMIX_CONCAT_INNER(a, b)
#define RBMIX_REGISTER_COMMAND(parent, attach)                                                   \
  namespace {                                                                                    \
  [[maybe_unused]] const bool RBMIX_CONCAT(rbmix_command_registered_, __COUNTER__) =                \
      ::rbmix::cli::register_command(parent, __FILE__, attach);                                  \
  }
