// Fuzz target: the CSV data reader (decode_csv_matrix through the data-file reader, and the binary, grey-level and
// label conversions every command applies to what it reads).
#include <cstddef>
#include <cstdint>

#include "fuzz_input.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/data_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const rbmix::DataFile file = rbmix::decode_data_file(rbmix::fuzz::as_string(data, size), "fuzz.csv");
    try {
      rbmix::binary_matrix_from_npy(file.array, "fuzz.csv");
    } catch (const rbmix::InputError&) {
    }
    try {
      rbmix::labels_from_npy(file.array, "fuzz.csv");
    } catch (const rbmix::InputError&) {
    }
  } catch (const rbmix::InputError&) {
  }
  return 0;
}
