#include "rbmix/io/trace_file.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "rbmix/core/error.hpp"
#include "rbmix/io/data_file.hpp"
#include "rbmix/io/npy.hpp"

namespace rbmix {

MatrixD read_trace_file(const std::filesystem::path& file, Eigen::Index min_steps, const MemoryLimitSources& sources) {
  const std::string name = file.string();
  MatrixD chains_by_steps;
  {  // the file's bytes are freed before the transpose: at 10^8 steps each copy is 800 MB
    NpyArray array = read_data_file(file).array;
    require(array.dtype == NpyDtype::float64 || array.dtype == NpyDtype::float32,
            name + ": the trace must hold float64 or float32 numbers");
    require(array.shape.size() == 1 || array.shape.size() == 2,
            name + ": the trace must be 1-D (one chain) or 2-D (chains × steps), got " +
                std::to_string(array.shape.size()) + " dimensions");
    const std::vector<std::int64_t> given_shape = array.shape;
    if (array.shape.size() == 1) array.shape = {1, array.shape[0]};
    const std::string shape = given_shape.size() == 1 ? std::to_string(given_shape[0]) + " steps"
                                                      : std::to_string(given_shape[0]) + " × " +
                                                            std::to_string(given_shape[1]) + " (chains × steps)";
    require(array.shape[1] >= min_steps, [&] {
      return name + ": the trace is " + shape + "; each chain needs at least " + std::to_string(min_steps) +
             " steps (the estimators split it into halves of 4)";
    });
    const auto draws = static_cast<std::uint64_t>(array.shape[0]) * static_cast<std::uint64_t>(array.shape[1]);
    require_fits_in_memory(
        draws * trace_bytes_per_draw,
        name + ": the trace is " + shape + "; its draws as doubles, with the copy the estimators make,", sources);
    chains_by_steps = array.dtype == NpyDtype::float64 ? npy_to_matrix<double>(array, name)
                                                       : MatrixD(npy_to_matrix<float>(array, name).cast<double>());
  }
  require(chains_by_steps.allFinite(), name + ": the trace contains NaN or Inf");
  return chains_by_steps.transpose();
}

}  // namespace rbmix
