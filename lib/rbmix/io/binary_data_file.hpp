#pragma once
// Binary data sets on disk: a 2-D .npy array, one sample per row (n_samples × n_features).
// save_binary_matrix writes dtype |u1 (np.load gives a uint8 array). load_binary_matrix also accepts |b1, <f4 and
// <f8 arrays whose every value is exactly 0 or 1, as numpy users commonly save them; any other value, rank or
// dtype is an InputError naming the file.
#include <filesystem>

#include "rbmix/core/types.hpp"

namespace rbmix {

void save_binary_matrix(const std::filesystem::path& file, const BinaryMatrix& data);
BinaryMatrix load_binary_matrix(const std::filesystem::path& file);

}  // namespace rbmix
