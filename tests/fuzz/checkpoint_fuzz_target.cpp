// Fuzz target: the training checkpoint reader. Input: one byte choosing the run (checkpoint_runs.hpp), then a
// checkpoint without its trailing CRC-32. The target appends the correct CRC-32, so that mutations reach the
// field checks behind it, and also decodes the bytes as they are, exercising the checksum's refusal.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "checkpoint_runs.hpp"
#include "fuzz_input.hpp"
#include "rbmix/core/error.hpp"

namespace {

void decode(const rbmix::TrainingOptions& options, const std::string& bytes) {
  // The phase in the precision the options name, as the trainer makes it.
  const auto make = [&](auto scalar) -> std::unique_ptr<rbmix::NegativePhase> {
    return rbmix::make_negative_phase<decltype(scalar)>(options, rbmix::fuzz::checkpoint_training_data().cols(),
                                                        rbmix::fuzz::checkpoint_hidden_units,
                                                        rbmix::fuzz::checkpoint_batch_size);
  };
  const auto negative_phase = options.sample_in_float ? make(float{}) : make(double{});
  try {
    rbmix::decode_checkpoint(bytes, "fuzz.ckpt", rbmix::fuzz::checkpoint_run(options), *negative_phase);
  } catch (const rbmix::InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto& algorithms = rbmix::fuzz::checkpoint_algorithms;
  const rbmix::TrainingOptions options = rbmix::fuzz::checkpoint_options(algorithms[data[0] % algorithms.size()]);
  std::string body = rbmix::fuzz::as_string(data + 1, size - 1);
  decode(options, body);
  const std::uint64_t crc = crc32(0L, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()));
  body.append(reinterpret_cast<const char*>(&crc), sizeof crc);
  decode(options, body);
  return 0;
}
