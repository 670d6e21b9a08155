#pragma once
// A fresh directory for a test's files, removed with everything in it when the object goes out of scope.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace rbmix::testing {

class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::string name = test ? std::string(test->test_suite_name()) + "." + test->name() : "rbmix";
    path_ = std::filesystem::temp_directory_path() / ("rbmix-test-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace rbmix::testing
