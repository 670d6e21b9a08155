// rbmix: the command-line program. Every subcommand lives in its own file and registers itself
// (command_registry.hpp); this file builds the command tree, runs it, and turns errors into exit codes.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <map>
#include <new>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/experiments/job_grid.hpp"

namespace rbmix::cli {

std::vector<CommandRegistration>& command_registry() {
  static std::vector<CommandRegistration> registry;
  return registry;
}

}  // namespace rbmix::cli

int main(int argc, char** argv) {
  CLI::App app{"rbmix — verified MCMC for binary restricted Boltzmann machines"};
  app.set_version_flag("--version", std::string("rbmix ") + RBMIX_VERSION);
  app.require_subcommand(1);
  std::map<std::string, CLI::App*> parents{{"", &app}};
  parents["data"] = app.add_subcommand("data", "Make, fetch and inspect data sets");
  parents["data"]->require_subcommand(1);
  parents["experiment"] = app.add_subcommand("experiment", "Reproduce the published figures (--scale smoke|paper)");
  parents["experiment"]->require_subcommand(1);

  auto registrations = rbmix::cli::command_registry();
  std::stable_sort(registrations.begin(), registrations.end(),
                   [](const auto& a, const auto& b) { return a.source < b.source; });
  for (const auto& registration : registrations) registration.attach(*parents.at(registration.parent));

  try {
    app.parse(argc, argv);
  } catch (const CLI::RequiredError& error) {
    // CLI11 checks "a subcommand is required" before leftover arguments, so `rbmix frobnicate` would not name the
    // unknown word; name it when there is one.
    const auto leftover = app.remaining(true);
    return leftover.empty() ? app.exit(error) : app.exit(CLI::ExtrasError(leftover));
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  } catch (const rbmix::experiments::GridPartDone& done) {
    // A shard journaled its share, or an MPI worker rank stops because rank 0 cannot go on (rank 0 says why).
    if (*done.what() != '\0') std::cerr << "rbmix: " << done.what() << '\n';
    return 0;
  } catch (const rbmix::InputError& error) {
    std::cerr << "rbmix: error: " << error.what() << '\n';
    return 2;
  } catch (const std::bad_alloc&) {
    // Sizes from the command line (units, particles, steps) can ask for more memory than there is.
    std::cerr << "rbmix: error: out of memory (are the sizes on the command line too large?)\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "rbmix: failed: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
