#pragma once
// Reading the rows of a --data file: binary (0/1) rows, or grey levels where the command asked for them. A file of
// grey levels given where binary rows are expected is refused with `grey_hint`, the option that reads it as grey
// levels, so the user learns how to use the file instead of only that it is wrong.
#include <string>

#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/io/binary_data_file.hpp"

namespace rbmix::cli {

inline MatrixD load_rows(const std::string& file, bool grey_levels, const std::string& grey_hint) {
  if (grey_levels) return load_grey_levels(file);
  try {
    return to_real(load_binary_matrix(file));
  } catch (const InputError& error) {
    bool grey = false;
    try {
      grey = load_grey_levels(file).size() > 0;
    } catch (const InputError&) {
      grey = false;  // neither binary nor grey levels: the binary loader's message says what is wrong
    }
    if (!grey) throw;
    throw InputError(std::string(error.what()) + "; the file holds grey levels: " + grey_hint);
  }
}

}  // namespace rbmix::cli
