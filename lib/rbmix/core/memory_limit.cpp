#include "rbmix/core/memory_limit.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

std::uint64_t physical_memory() {
  return static_cast<std::uint64_t>(::sysconf(_SC_PHYS_PAGES)) * static_cast<std::uint64_t>(::sysconf(_SC_PAGE_SIZE));
}

// The limit a cgroup file states: a decimal byte count; none for "max" (v2's no limit), a file that is missing or
// holds anything else. v1's "no limit" is a huge count, which the minimum with the physical memory passes over.
std::optional<std::uint64_t> read_limit(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string text;
  if (!(in >> text) || text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  std::uint64_t bytes = 0;
  std::istringstream number(text);
  if (!(number >> bytes)) return std::nullopt;  // beyond 64 bits: no limit that matters
  return bytes;
}

// The cgroup path of the v2 hierarchy ("0::PATH") or of v1's memory controller ("N:CONTROLLERS:PATH" with memory among
// the comma-separated controllers) in /proc/self/cgroup; none where the file or the line is missing.
std::optional<std::string> cgroup_path(const std::filesystem::path& process_cgroups, bool version_2) {
  std::ifstream in(process_cgroups);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t first = line.find(':');
    const std::size_t second = first == std::string::npos ? std::string::npos : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    // Hierarchy 0 is v2's (cgroups(7)); a v1 hierarchy lists its controllers.
    const bool matches = version_2 ? line.compare(0, first, "0") == 0
                                   : ("," + controllers + ",").find(",memory,") != std::string::npos;
    if (matches) return line.substr(second + 1);
  }
  return std::nullopt;
}

// The smallest limit in `file_name` of the cgroup at `path` under `root` and of every folder above it up to the root.
// A path that climbs out of the mount ("/.."; a cgroup outside the namespace's view) is read as the root.
void take_smallest_limit(const std::filesystem::path& root, const std::string& path, const char* file_name,
                         MemoryLimit& limit) {
  std::filesystem::path relative = std::filesystem::path(path).relative_path();
  if (std::find(relative.begin(), relative.end(), "..") != relative.end()) relative.clear();
  for (;;) {
    const std::filesystem::path file = root / relative / file_name;
    if (const std::optional<std::uint64_t> bytes = read_limit(file); bytes && *bytes < limit.bytes)
      limit = {*bytes, "the memory limit of this process's cgroup (" + file.string() + ")"};
    if (relative.empty()) break;
    relative = relative.parent_path();
  }
}

}  // namespace

MemoryLimit memory_limit(const MemoryLimitSources& sources) {
  MemoryLimit limit{sources.physical_bytes > 0 ? sources.physical_bytes : physical_memory(),
                    "the physical memory of this machine"};
  if (const auto path = cgroup_path(sources.process_cgroups, true))
    take_smallest_limit(sources.cgroup_v2_root, *path, "memory.max", limit);
  if (const auto path = cgroup_path(sources.process_cgroups, false))
    take_smallest_limit(sources.cgroup_v1_memory_root, *path, "memory.limit_in_bytes", limit);
  return limit;
}

void require_fits_in_memory(std::uint64_t bytes, const std::string& what, const MemoryLimitSources& sources) {
  const MemoryLimit limit = memory_limit(sources);
  require(bytes <= limit.bytes, [&] {
    constexpr double gigabyte = 1e9;
    char text[96];
    std::snprintf(text, sizeof text, " need %.3g GB, more than the %.3g GB of ", static_cast<double>(bytes) / gigabyte,
                  static_cast<double>(limit.bytes) / gigabyte);
    return what + text + limit.source;
  });
}

}  // namespace rbmix
