#pragma once
// How much memory this process may use, for the readers that refuse an input too large to hold before they start on
// it (a directory of PNGs, a trace for the τ estimators). A machine's physical memory is not that bound in a
// container: Docker, Kubernetes and systemd give a process a cgroup with a memory limit, and past it the kernel's
// OOM killer ends the process with no message. So the bound is the smallest of the physical memory and the limits of
// the process's memory cgroup and of every cgroup above it (a limit on a parent holds its children too):
//   cgroup v2: memory.max ("max" where there is none) under the unified hierarchy's mount, /sys/fs/cgroup;
//   cgroup v1: memory.limit_in_bytes (a huge number where there is none) under /sys/fs/cgroup/memory.
// The process's cgroup is the path /proc/self/cgroup names (line "0::PATH" for v2, "N:…memory…:PATH" for v1). In a
// cgroup namespace that path is "/" and the container's own limit is at the mount's root; where the mount shows a
// subtree that lacks the path, the limits of the folders the path reaches are read (the root's at least).
#include <cstdint>
#include <filesystem>
#include <string>

namespace rbmix {

struct MemoryLimit {
  std::uint64_t bytes = 0;
  // What set it, for an error message: "the physical memory of this machine" or "the memory limit of this process's
  // cgroup (FILE)".
  std::string source;
};

// Where memory_limit reads: the real system's files by default; a test points them at a fake tree.
struct MemoryLimitSources {
  std::filesystem::path process_cgroups = "/proc/self/cgroup";
  std::filesystem::path cgroup_v2_root = "/sys/fs/cgroup";
  std::filesystem::path cgroup_v1_memory_root = "/sys/fs/cgroup/memory";
  std::uint64_t physical_bytes = 0;  // 0: the machine's, from sysconf
};

// The bound: the physical memory or the smallest cgroup limit below it. Files that are missing or unreadable are
// passed over (no cgroup, another operating system), so the bound is never below what a limit says.
MemoryLimit memory_limit(const MemoryLimitSources& sources = {});

// Throws InputError "WHAT needs X GB, more than the Y GB of SOURCE" unless `bytes` fit within memory_limit(sources).
void require_fits_in_memory(std::uint64_t bytes, const std::string& what, const MemoryLimitSources& sources = {});

}  // namespace rbmix
