// Fuzz target: the .npy reader (decode_npy, the typed conversions, and the binary data-set loader).
#include <cstddef>
#include <cstdint>

#include "fuzz_input.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes = rbmix::fuzz::as_string(data, size);
  try {
    const rbmix::NpyArray array = rbmix::decode_npy(bytes, "fuzz.npy");
    try {
      rbmix::npy_to_matrix<double>(array, "fuzz.npy");
    } catch (const rbmix::InputError&) {
    }
    try {
      rbmix::npy_to_vector<float>(array, "fuzz.npy");
    } catch (const rbmix::InputError&) {
    }
  } catch (const rbmix::InputError&) {
  }
  try {
    rbmix::load_binary_matrix(rbmix::fuzz::as_file(data, size));
  } catch (const rbmix::InputError&) {
  }
  return 0;
}
