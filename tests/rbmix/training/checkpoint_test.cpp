#include "rbmix/training/checkpoint.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <limits>

#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/io/file_bytes.hpp"
#include "rbmix/io/output_file.hpp"
#include "rbmix/training/trainer.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

constexpr Eigen::Index kHidden = 4;
constexpr Eigen::Index kBatchSize = 6;
constexpr std::int64_t kPlannedUpdates = 60;
constexpr std::int64_t kInterruptedAt = 30;

TrainingOptions persistent_options(const std::filesystem::path& checkpoint) {
  TrainingOptions options;
  apply_algorithm(options, Algorithm::pcd, 2);
  options.rule = parse_unit_rule("flip");
  options.batch_size = kBatchSize;
  options.updates = kPlannedUpdates;
  options.evaluation_interval = 10;
  options.learning_rate = 0.1;
  options.seed = 3;
  options.checkpoint_path = checkpoint.string();
  return options;
}

MatrixD bars_and_stripes_3() { return to_real(bars_and_stripes(3)); }

// The run a trainer of these options is: what decode_checkpoint checks a file against.
CheckpointRun run_of(const TrainingOptions& options, const MatrixD& train) {
  return {trajectory_fingerprint(options), train.rows(),   train.cols(), kHidden,
          train.rows() / kBatchSize,       options.updates};
}

// A PCD run interrupted at update 30 of 60 leaves its checkpoint; fixtures damage copies of it.
class Checkpoint : public ::testing::Test {
 protected:
  Checkpoint() : options_(persistent_options(directory_ / "run.ckpt")), train_(bars_and_stripes_3()) {
    Trainer trainer(options_, train_, {}, kHidden);
    TrainingHooks hooks;
    hooks.interrupt_requested = [&trainer] { return trainer.updates_done() == kInterruptedAt; };
    trainer.run(hooks);
    bytes_ = read_file_bytes(options_.checkpoint_path);
  }

  TrainingState decode(const std::string& bytes) const {
    const auto negative_phase = make_negative_phase<double>(options_, train_.cols(), kHidden, kBatchSize);
    return decode_checkpoint(bytes, "run.ckpt", run_of(options_, train_), *negative_phase);
  }

  // The CRC-32 recomputed after a deliberate change, so that only the changed field is wrong.
  static std::string with_checksum(std::string bytes) {
    const std::size_t body = bytes.size() - sizeof(std::uint64_t);
    const std::uint64_t crc = crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(body));
    std::memcpy(bytes.data() + body, &crc, sizeof crc);
    return bytes;
  }

  template <typename Value>
  static std::string with_value_at(std::string bytes, std::size_t offset, Value value) {
    std::memcpy(bytes.data() + offset, &value, sizeof value);
    return with_checksum(std::move(bytes));
  }

  // Offset of the update counter: magic string, version, fingerprint string, rows, visible, hidden units.
  std::size_t counter_offset() const { return 8 + 8 + 8 + 8 + trajectory_fingerprint(options_).size() + 3 * 8; }

  // Offset of the first visible state of the first chain: the negative phase's record ends the file before the
  // closing magic string and the checksum; it opens with its initialised flag, the replica count and the shape.
  std::size_t first_chain_state_offset() const {
    const std::size_t tail = 8 + 8 + 8;
    BinaryWriter negative_phase_record;
    const auto negative_phase = make_negative_phase<double>(options_, train_.cols(), kHidden, kBatchSize);
    decode_checkpoint(bytes_, "run.ckpt", run_of(options_, train_), *negative_phase);
    negative_phase->save(negative_phase_record);
    return bytes_.size() - tail - negative_phase_record.bytes().size() + 8 + 8 + 16;
  }

  testing::TemporaryDirectory directory_;
  TrainingOptions options_;
  MatrixD train_;
  std::string bytes_;
};

TEST_F(Checkpoint, AnIntactFileLoads) {
  const TrainingState state = decode(bytes_);
  EXPECT_EQ(state.updates_done, kInterruptedAt);
  EXPECT_EQ(decode(with_checksum(bytes_)).updates_done, kInterruptedAt);
}

// CRC-32 detects every single-bit error (a burst of length 1), so one flipped bit anywhere is refused.
TEST_F(Checkpoint, AFlippedBitAnywhereIsRefused) {
  for (std::size_t offset = 0; offset < bytes_.size(); ++offset) {
    std::string damaged = bytes_;
    damaged[offset] = static_cast<char>(damaged[offset] ^ (1 << (offset % 8)));
    EXPECT_THROW(decode(damaged), InputError) << "bit " << offset % 8 << " of byte " << offset;
  }
}

TEST_F(Checkpoint, ACutFileIsRefusedNamingIt) {
  for (const std::size_t length : {std::size_t{0}, std::size_t{7}, bytes_.size() / 2, bytes_.size() - 1}) {
    EXPECT_THAT([&] { decode(bytes_.substr(0, length)); }, ThrowsMessage<InputError>(HasSubstr("checkpoint run.ckpt")))
        << "cut at " << length;
  }
  EXPECT_THAT([&] { decode(bytes_.substr(0, bytes_.size() - 1)); },
              ThrowsMessage<InputError>(HasSubstr("CRC-32 checksum does not match")));
}

TEST_F(Checkpoint, ChainStatesOtherThanZeroOrOneAreRefused) {
  const std::size_t offset = first_chain_state_offset();
  for (const double state : {0.0, 1.0}) EXPECT_NO_THROW(decode(with_value_at(bytes_, offset, state)));
  for (const double state : {2.0, 0.5, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
    EXPECT_THAT([&] { decode(with_value_at(bytes_, offset, state)); },
                ThrowsMessage<InputError>(HasSubstr("chain visible states")))
        << state;
  }
}

TEST_F(Checkpoint, AnUpdateCounterBeyondThePlannedUpdatesIsRefused) {
  const std::size_t offset = counter_offset();
  ASSERT_EQ(decode(with_value_at(bytes_, offset, kInterruptedAt)).updates_done, kInterruptedAt);
  for (const std::int64_t counter : {kPlannedUpdates + 1, std::numeric_limits<std::int64_t>::max(), std::int64_t{-1}}) {
    EXPECT_THAT([&] { decode(with_value_at(bytes_, offset, counter)); },
                ThrowsMessage<InputError>(HasSubstr("update counter")))
        << counter;
  }
  // A counter within range that does not match the batch position is refused too.
  EXPECT_THAT([&] { decode(with_value_at(bytes_, offset, kInterruptedAt + 1)); },
              ThrowsMessage<InputError>(HasSubstr("batch position")));
}

TEST_F(Checkpoint, ANonFiniteParameterIsRefused) {
  // The first weight follows the counter, batch position, data order (one u64 per row), data stream (4 words)
  // and the shape of W.
  const std::size_t offset = counter_offset() + 8 + 8 + 8 * static_cast<std::size_t>(train_.rows()) + 32 + 16;
  EXPECT_THAT([&] { decode(with_value_at(bytes_, offset, std::numeric_limits<double>::infinity())); },
              ThrowsMessage<InputError>(HasSubstr("parameters W: an entry is NaN or infinite")));
}

TEST_F(Checkpoint, AFileOfTheFormerFormatWithoutChecksumSaysSo) {
  EXPECT_THAT([&] { decode(with_value_at(bytes_, 16, std::uint64_t{1})); },
              ThrowsMessage<InputError>(HasSubstr("no checksum")));
}

TEST_F(Checkpoint, TheTrainerRefusesADamagedFileNamingIt) {
  std::string damaged = bytes_;
  damaged[damaged.size() / 2] = static_cast<char>(damaged[damaged.size() / 2] ^ 1);
  write_output_file(options_.checkpoint_path, damaged);
  Trainer trainer(options_, train_, {}, kHidden);
  EXPECT_THAT([&] { trainer.load_checkpoint(options_.checkpoint_path); },
              ThrowsMessage<InputError>(HasSubstr("checkpoint " + options_.checkpoint_path + ": damaged")));
}

}  // namespace
}  // namespace rbmix
