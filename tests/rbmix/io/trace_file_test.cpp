#include "rbmix/io/trace_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <string>

#include "rbmix/core/error.hpp"
#include "rbmix/io/npy.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

// chains × steps in the file, steps × chains read.
TEST(TraceFile, ReadsChainsBySteps) {
  const testing::TemporaryDirectory directory;
  MatrixD chains_by_steps(2, 8);
  for (Eigen::Index k = 0; k < chains_by_steps.size(); ++k) chains_by_steps.data()[k] = 0.5 * static_cast<double>(k);
  write_npy(directory / "t.npy", matrix_to_npy(chains_by_steps));
  EXPECT_EQ(read_trace_file(directory / "t.npy", 8), MatrixD(chains_by_steps.transpose()));
  write_npy(directory / "one.npy", vector_to_npy(VectorD(chains_by_steps.row(1).transpose())));
  EXPECT_EQ(read_trace_file(directory / "one.npy", 8), MatrixD(chains_by_steps.row(1).transpose()));
  write_npy(directory / "f.npy", matrix_to_npy(MatrixF(chains_by_steps.cast<float>())));
  EXPECT_EQ(read_trace_file(directory / "f.npy", 8), MatrixD(chains_by_steps.transpose()));
}

TEST(TraceFile, RefusesWhatIsNoTraceNamingTheFile) {
  const testing::TemporaryDirectory directory;
  const std::string file = (directory / "t.npy").string();
  write_npy(file, matrix_to_npy(MatrixD(MatrixD::Zero(4, 5))));
  EXPECT_THAT([&] { read_trace_file(file, 8); },
              ThrowsMessage<InputError>(
                  HasSubstr(file + ": the trace is 4 × 5 (chains × steps); each chain needs at least 8 steps")));
  MatrixD with_nan = MatrixD::Zero(1, 8);
  with_nan(0, 3) = std::numeric_limits<double>::quiet_NaN();
  write_npy(file, matrix_to_npy(with_nan));
  EXPECT_THAT([&] { read_trace_file(file, 8); },
              ThrowsMessage<InputError>(HasSubstr(file + ": the trace contains NaN")));
  write_npy(file, matrix_to_npy(Matrix<std::uint8_t>(Matrix<std::uint8_t>::Zero(1, 8))));
  EXPECT_THAT([&] { read_trace_file(file, 8); },
              ThrowsMessage<InputError>(HasSubstr(file + ": the trace must hold float64 or float32 numbers")));
}

// Sized against the memory this process may use: a fake container whose cgroup allows exactly 16 bytes for each of
// 3 × 100 draws (the trace in doubles and one copy) holds that trace and refuses one of 3 × 101, before its numbers
// are converted.
TEST(TraceFile, RefusesATraceLargerThanTheCgroupsMemoryLimit) {
  const testing::TemporaryDirectory directory;
  std::ofstream(directory / "cgroup") << "0::/\n";
  std::filesystem::create_directories(directory / "v2");
  std::ofstream(directory / "v2" / "memory.max") << 300 * 16 << "\n";
  const MemoryLimitSources container{directory / "cgroup", directory / "v2", directory / "v1", 0};
  write_npy(directory / "fits.npy", matrix_to_npy(MatrixD(MatrixD::Ones(3, 100))));
  EXPECT_EQ(read_trace_file(directory / "fits.npy", 8, container).rows(), 100);
  const std::string large = (directory / "large.npy").string();
  write_npy(large, matrix_to_npy(MatrixD(MatrixD::Ones(3, 101))));
  EXPECT_THAT([&] { read_trace_file(large, 8, container); },
              ThrowsMessage<InputError>(HasSubstr(large + ": the trace is 3 × 101 (chains × steps); its draws as "
                                                          "doubles, with the copy the estimators make, need")));
  EXPECT_THAT([&] { read_trace_file(large, 8, container); },
              ThrowsMessage<InputError>(HasSubstr("of the memory limit of this process's cgroup")));
  EXPECT_EQ(read_trace_file(large, 8).rows(), 101);
}

}  // namespace
}  // namespace rbmix
