#include "rbmix/core/memory_limit.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "rbmix/core/error.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

constexpr std::uint64_t physical = 8'000'000'000;

// A fake system: /proc/self/cgroup with `lines`, and the two cgroup mounts, under one temporary directory.
class FakeCgroups {
 public:
  explicit FakeCgroups(const std::string& lines) {
    std::filesystem::create_directories(directory_ / "v2");
    std::filesystem::create_directories(directory_ / "v1");
    std::ofstream(directory_ / "cgroup") << lines;
    sources_ = {directory_ / "cgroup", directory_ / "v2", directory_ / "v1", physical};
  }
  // Writes `text` into the file at `path` under the v2 or v1 mount, making its folders.
  std::filesystem::path write(bool version_2, const std::string& path, const std::string& text) const {
    const std::filesystem::path file = directory_ / (version_2 ? "v2" : "v1") / path;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file;
  }
  const MemoryLimitSources& sources() const { return sources_; }

 private:
  testing::TemporaryDirectory directory_;
  MemoryLimitSources sources_;
};

TEST(MemoryLimit, IsThePhysicalMemoryWithoutACgroup) {
  const FakeCgroups none("");
  const MemoryLimit limit = memory_limit(none.sources());
  EXPECT_EQ(limit.bytes, physical);
  EXPECT_EQ(limit.source, "the physical memory of this machine");
  MemoryLimitSources missing = none.sources();
  missing.process_cgroups = "/nonexistent/cgroup";
  EXPECT_EQ(memory_limit(missing).bytes, physical);
}

// cgroup v2: the smallest memory.max of the process's cgroup and the folders above it; "max" is no limit.
TEST(MemoryLimit, ReadsTheSmallestMemoryMaxOnTheV2PathUpToTheRoot) {
  const FakeCgroups v2("0::/system.slice/job.scope\n");
  v2.write(true, "system.slice/job.scope/memory.max", "max\n");
  EXPECT_EQ(memory_limit(v2.sources()).bytes, physical);
  const std::filesystem::path parent = v2.write(true, "system.slice/memory.max", "2000000000\n");
  const MemoryLimit limit = memory_limit(v2.sources());
  EXPECT_EQ(limit.bytes, 2'000'000'000u);
  EXPECT_EQ(limit.source, "the memory limit of this process's cgroup (" + parent.string() + ")");
  v2.write(true, "system.slice/job.scope/memory.max", "1500000000\n");
  EXPECT_EQ(memory_limit(v2.sources()).bytes, 1'500'000'000u);
  // A limit above the physical memory does not raise the bound.
  v2.write(true, "system.slice/job.scope/memory.max", "90000000000\n");
  v2.write(true, "system.slice/memory.max", "max\n");
  EXPECT_EQ(memory_limit(v2.sources()).bytes, physical);
}

// In a container: "0::/" in a cgroup namespace, or a path the container's mount does not show; the limit is at
// the mount's root either way. A path that climbs out of the mount is read as the root: the smaller limit in the
// folder above the mount is not the process's.
TEST(MemoryLimit, ReadsTheContainersLimitAtTheRootOfTheMount) {
  for (const std::string line : {"0::/\n", "0::/docker/0123abcd\n", "0::/../outside\n"}) {
    SCOPED_TRACE(line);
    const FakeCgroups container(line);
    container.write(true, "memory.max", "536870912\n");
    container.write(true, "../memory.max", "1000\n");
    container.write(true, "../outside/memory.max", "1000\n");
    EXPECT_EQ(memory_limit(container.sources()).bytes, 536'870'912u);
  }
}

// cgroup v1: memory.limit_in_bytes of the memory controller's path (alone or with other controllers on its line);
// its "no limit" is a huge number.
TEST(MemoryLimit, ReadsTheV1MemoryControllersLimit) {
  const FakeCgroups v1("9:name=systemd:/systemd\n4:memory:/process_api/job\n3:cpu,cpuacct:/other\n0::/\n");
  // Only hierarchy 0's path is read under the v2 mount.
  v1.write(true, "systemd/memory.max", "1000\n");
  v1.write(false, "process_api/job/memory.limit_in_bytes", "9223372036854771712\n");
  EXPECT_EQ(memory_limit(v1.sources()).bytes, physical);
  v1.write(false, "process_api/job/memory.limit_in_bytes", "3000000000\n");
  EXPECT_EQ(memory_limit(v1.sources()).bytes, 3'000'000'000u);
  // Only the memory controller's line counts: the cpu line's path holds no limit that is read.
  v1.write(false, "other/memory.limit_in_bytes", "1000\n");
  EXPECT_EQ(memory_limit(v1.sources()).bytes, 3'000'000'000u);
  const FakeCgroups combined("5:cpu,memory,pids:/batch\n");
  combined.write(false, "batch/memory.limit_in_bytes", "4000000000\n");
  EXPECT_EQ(memory_limit(combined.sources()).bytes, 4'000'000'000u);
}

// A file that states no byte count is passed over, never read as a small limit.
TEST(MemoryLimit, PassesOverFilesThatStateNoCount) {
  for (const std::string text : {"", "-5\n", "12abc\n", "99999999999999999999999\n", "1e9\n"}) {
    SCOPED_TRACE(text);
    const FakeCgroups v2("0::/\n");
    v2.write(true, "memory.max", text);
    EXPECT_EQ(memory_limit(v2.sources()).bytes, physical);
  }
}

TEST(MemoryLimit, TheRealSystemsIsPositiveAndAtMostThePhysicalMemory) {
  const auto memory =
      static_cast<std::uint64_t>(::sysconf(_SC_PHYS_PAGES)) * static_cast<std::uint64_t>(::sysconf(_SC_PAGE_SIZE));
  const MemoryLimit limit = memory_limit();
  EXPECT_GT(limit.bytes, 0u);
  EXPECT_LE(limit.bytes, memory);
}

// The refusal names the input, the bytes it needs, the bound and what set it; exactly the bound still fits.
TEST(RequireFitsInMemory, RefusesMoreThanTheLimitNamingItsSource) {
  const FakeCgroups container("0::/\n");
  const std::filesystem::path file = container.write(true, "memory.max", "1000000000\n");
  EXPECT_NO_THROW(require_fits_in_memory(1'000'000'000, "the trace t.npy", container.sources()));
  EXPECT_THROW(require_fits_in_memory(1'000'000'001, "the trace t.npy", container.sources()), InputError);
  EXPECT_THAT([&] { require_fits_in_memory(1'500'000'000, "the trace t.npy", container.sources()); },
              ThrowsMessage<InputError>(
                  HasSubstr("the trace t.npy need 1.5 GB, more than the 1 GB of the memory limit of this process's "
                            "cgroup (" +
                            file.string() + ")")));
}

}  // namespace
}  // namespace rbmix
