// Fuzz target: the zip reader behind .npz files (STORED and DEFLATED members, zip64 fields, CRC-32).
#include <cstddef>
#include <cstdint>

#include "fuzz_input.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/io/zip_archive.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    rbmix::decode_zip(rbmix::fuzz::as_string(data, size), "fuzz.npz");
  } catch (const rbmix::InputError&) {
  }
  return 0;
}
