// Fuzz target: the PNG data reader (decode_png through the data-file reader, which turns an image into a row).
#include <cstddef>
#include <cstdint>

#include "fuzz_input.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/io/data_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    rbmix::decode_data_file(rbmix::fuzz::as_string(data, size), "fuzz.png");
  } catch (const rbmix::InputError&) {
  }
  return 0;
}
