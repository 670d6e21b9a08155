// rbmix: the command-line program. Every subcommand lives in its own file and registers itself
// (command_registry.hpp); this file builds the command tree, runs it, and turns errors into exit codes: every error
// is "rbmix: error: ..." with status 2, a misspelt option or subcommand with the nearest known names.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <map>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/printable.hpp"

namespace rbmix::cli {

std::vector<CommandRegistration>& command_registry() {
  static std::vector<CommandRegistration> registry;
  return registry;
}

namespace {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours each cost 1
// (a swap is the commonest typo: trian, --hdiden).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The command being parsed when the error came: the last subcommand given at every level.
const CLI::App* innermost_command(const CLI::App& app) {
  const CLI::App* command = &app;
  for (auto parsed = command->get_subcommands(); !parsed.empty(); parsed = command->get_subcommands())
    command = parsed.back();
  return command;
}

// The known names nearest to `word`: the options of `command` for a word starting with '-', else its
// subcommands. A name is near when at most a third of its letters (and at most 2) would have to change.
std::vector<std::string> nearest_names(const CLI::App& command, const std::string& word) {
  const bool option = word.rfind('-', 0) == 0;
  const std::string bare = option ? word.substr(0, word.find('=')) : word;
  std::vector<std::string> names;
  if (option) {
    for (const CLI::Option* known : command.get_options())
      for (const auto& name : known->get_lnames()) names.push_back("--" + name);
  } else {
    for (const CLI::App* sub : command.get_subcommands([](const CLI::App*) { return true; }))
      names.push_back(sub->get_name());
  }
  std::vector<std::string> near;
  std::size_t best = 3;
  for (const auto& name : names) {
    const std::size_t distance = edit_distance(bare, name);
    if (distance > std::max<std::size_t>(1, name.size() / 3) || distance > best) continue;
    if (distance < best) near.clear();
    best = distance;
    near.push_back(name);
  }
  return near;
}

// "rbmix: error: ..." for a command-line error, with suggestions for unknown words, and status 2.
int command_line_error(const CLI::App& app, const std::string& message, const std::vector<std::string>& leftover) {
  std::cerr << "rbmix: error: " << printable(message) << '\n';
  const CLI::App* command = innermost_command(app);
  for (const auto& word : leftover) {
    const auto near = nearest_names(*command, word);
    if (near.empty()) continue;
    std::cerr << "rbmix: '" << printable(word) << "': did you mean ";
    for (std::size_t k = 0; k < near.size(); ++k) std::cerr << (k == 0 ? "" : " or ") << near[k];
    std::cerr << "?\n";
  }
  std::string path;
  for (const CLI::App* level = command; level != nullptr && level->get_parent() != nullptr; level = level->get_parent())
    path = " " + level->get_name() + path;
  std::cerr << "rbmix: see 'rbmix" << path << " --help'\n";
  return 2;
}

}  // namespace

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
  } catch (const CLI::ParseError& error) {
    // CLI11 checks "a subcommand is required" before leftover arguments, so `rbmix frobnicate` would not name the
    // unknown word; name it when there is one.
    const auto leftover = app.remaining(true);
    // --help and --version end the parse by an exception of status 0, after every word was read: beside a word no
    // command knows (`rbmix trian --help`), the help of the command above it would hide the typo.
    if (error.get_exit_code() == 0 && leftover.empty()) return app.exit(error);
    if (error.get_exit_code() == 0)
      return rbmix::cli::command_line_error(app, CLI::ExtrasError(leftover).what(), leftover);
    const bool unknown_words = !leftover.empty() && (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr ||
                                                     dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr);
    return rbmix::cli::command_line_error(app, unknown_words ? CLI::ExtrasError(leftover).what() : error.what(),
                                          unknown_words ? leftover : std::vector<std::string>{});
  } catch (const rbmix::InputError& error) {
    std::cerr << "rbmix: error: " << rbmix::cli::printable(error.what()) << '\n';
    return 2;
  } catch (const std::bad_alloc&) {
    // Sizes from the command line (units, particles, steps) can ask for more memory than there is.
    std::cerr << "rbmix: error: out of memory (are the sizes on the command line too large?)\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "rbmix: failed: " << rbmix::cli::printable(error.what()) << '\n';
    return 1;
  }
  return 0;
}
