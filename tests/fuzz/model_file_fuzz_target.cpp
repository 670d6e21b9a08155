// Fuzz target: the model file readers (an .npz archive of W, b, c or J, b and metadata.json; the MRF's legacy JSON).
#include <cstddef>
#include <cstdint>

#include "fuzz_input.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/io/model_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    rbmix::decode_rbm(rbmix::fuzz::as_string(data, size), "fuzz-model.npz");
  } catch (const rbmix::InputError&) {
  }
  try {
    rbmix::decode_classification_rbm(rbmix::fuzz::as_string(data, size), "fuzz-model.npz");
  } catch (const rbmix::InputError&) {
  }
  try {
    rbmix::decode_boltzmann_machine(rbmix::fuzz::as_string(data, size), "fuzz-model.npz");
  } catch (const rbmix::InputError&) {
  }
  return 0;
}
