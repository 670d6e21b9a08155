// Fuzz target: the IDX reader, plain and gzip-compressed (its seed corpus holds both kinds).
#include <cstddef>
#include <cstdint>

#include "fuzz_input.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/idx.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    rbmix::read_idx(rbmix::fuzz::as_file(data, size));
  } catch (const rbmix::InputError&) {
  }
  return 0;
}
