#include "rbmix/training/checkpoint.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "rbmix/core/entry_checks.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/io/crc32.hpp"
#include "rbmix/io/file_bytes.hpp"
#include "rbmix/io/output_file.hpp"
#include "rbmix/training/binary_archive.hpp"

namespace rbmix {
namespace {

constexpr std::string_view checkpoint_magic = "RBMIXCKP";
// Version 1 had no checksum; it is refused with a message saying so. Version 2 had no classification errors in the
// learning curve; it is still read (its points have none). Versions 3 and 4 had no exact values beside the estimates
// and no monitor state; they are still read (a run with the trajectory monitor refuses them: its particles are
// missing).
constexpr std::uint64_t checkpoint_version = 5;
constexpr std::uint64_t checkpoint_version_without_monitor_state = 4;
constexpr std::uint64_t checkpoint_version_without_monitor = 3;
constexpr std::uint64_t checkpoint_version_without_errors = 2;

// The monitor's fields of a learning-curve point beyond the likelihoods and errors, in the order version 4 stores
// them (training_monitor.hpp).
constexpr std::optional<double> EvaluationPoint::* monitor_fields[] = {
    &EvaluationPoint::train_log_likelihood_lower,  &EvaluationPoint::train_log_likelihood_upper,
    &EvaluationPoint::test_log_likelihood_lower,   &EvaluationPoint::test_log_likelihood_upper,
    &EvaluationPoint::train_pseudo_log_likelihood, &EvaluationPoint::test_pseudo_log_likelihood,
    &EvaluationPoint::train_reconstruction_error,  &EvaluationPoint::test_reconstruction_error,
    &EvaluationPoint::free_energy_gap};
// The fields version 5 adds to each point, after those above.
constexpr std::optional<double> EvaluationPoint::* exact_beside_fields[] = {
    &EvaluationPoint::train_log_likelihood_exact, &EvaluationPoint::test_log_likelihood_exact};
constexpr std::size_t checksum_bytes = sizeof(std::uint64_t);

void write_model(BinaryWriter& writer, const Rbm& rbm) {
  writer.write_matrix(rbm.weights);
  writer.write_vector(rbm.visible_bias);
  writer.write_vector(rbm.hidden_bias);
}

Rbm read_model(BinaryReader& reader, Eigen::Index n_visible, Eigen::Index n_hidden, const std::string& what) {
  Rbm rbm;
  rbm.weights = reader.read_matrix<double>(n_hidden, n_visible, what + " W");
  rbm.visible_bias = reader.read_vector<double>(n_visible, what + " visible bias");
  rbm.hidden_bias = reader.read_vector<double>(n_hidden, what + " hidden bias");
  return rbm;
}

void write_optional(BinaryWriter& writer, const std::optional<double>& value) {
  writer.write_u64(value ? 1 : 0);
  writer.write_f64(value.value_or(0.0));
}

// `infinite_allowed`: an AIS band's lower end is −∞ when mean w − 3 se ≤ 0 (ais.hpp), so ±∞ pass there; NaN never.
std::optional<double> read_optional(BinaryReader& reader, const std::string& what, bool infinite_allowed = false) {
  const bool present = reader.read_flag(what);
  const double value = reader.read_f64();
  if (present && (std::isnan(value) || (!infinite_allowed && std::isinf(value))))
    reader.fail(what + " is NaN or infinite");
  return present ? std::optional<double>(value) : std::nullopt;
}

// μ and λ are moving averages of unit means (002 §4), so they stay in [0, 1].
void require_unit_interval(BinaryReader& reader, const VectorD& offset, const std::string& what) {
  if (!all_in_unit_interval(offset)) reader.fail(what + " lies outside [0, 1]");
}

// Names the options in which two trajectory fingerprints (JSON objects, training_options.hpp) differ, with both
// values, so that a refused --resume says what changed.
std::string fingerprint_difference(const std::string& stored, const std::string& current) {
  const nlohmann::json before = nlohmann::json::parse(stored, nullptr, false);
  const nlohmann::json now = nlohmann::json::parse(current, nullptr, false);
  if (!before.is_object() || !now.is_object()) return "(algorithm, rule, rates, seed, ...)";
  std::string differences;
  const auto describe = [](const nlohmann::json& object, const std::string& key) {
    return object.contains(key) ? object.at(key).dump() : std::string("(not set)");
  };
  std::vector<std::string> keys;
  for (const auto& [key, value] : before.items()) keys.push_back(key);
  for (const auto& [key, value] : now.items())
    if (!before.contains(key)) keys.push_back(key);
  // Outside fast PCD the fast learning rate is the learning rate, recorded for the fingerprint alone: a changed
  // --lr is named once, as learning_rate, and not as an option that was never given.
  const bool fast = now.value("negative_phase", "") == "fast_persistent";
  for (const auto& key : keys) {
    if (before.contains(key) && now.contains(key) && before.at(key) == now.at(key)) continue;
    if (key == "fast_learning_rate" && !fast) continue;
    differences += (differences.empty() ? "" : "; ") + key + " was " + describe(before, key) + ", now " +
                   describe(now, key);
  }
  return differences.empty() ? "(algorithm, rule, rates, seed, ...)" : differences;
}

}  // namespace

std::string encode_checkpoint(const CheckpointRun& run, const TrainingState& state,
                              const NegativePhase& negative_phase) {
  BinaryWriter writer;
  writer.write_string(std::string(checkpoint_magic));
  writer.write_u64(checkpoint_version);
  writer.write_string(run.trajectory_fingerprint);
  writer.write_u64(static_cast<std::uint64_t>(run.rows));
  writer.write_u64(static_cast<std::uint64_t>(run.n_visible));
  writer.write_u64(static_cast<std::uint64_t>(run.n_hidden));
  writer.write_i64(state.updates_done);
  writer.write_i64(state.batch_in_epoch);
  for (const std::uint64_t row : state.permutation) writer.write_u64(row);
  writer.write_stream(state.data_stream);
  write_model(writer, state.parameters.parameters);
  writer.write_vector(state.parameters.visible_offset);
  writer.write_vector(state.parameters.hidden_offset);
  write_model(writer, state.velocity);
  writer.write_u64(state.learning_curve.size());
  for (const auto& point : state.learning_curve) {
    writer.write_i64(point.update);
    writer.write_f64(point.epoch);
    write_optional(writer, point.train_log_likelihood);
    write_optional(writer, point.test_log_likelihood);
    write_optional(writer, point.train_error);
    write_optional(writer, point.test_error);
    for (const auto field : monitor_fields) write_optional(writer, point.*field);
    for (const auto field : exact_beside_fields) write_optional(writer, point.*field);
  }
  negative_phase.save(writer);
  writer.write_string(state.monitor_state);
  writer.write_string(std::string(checkpoint_magic));
  writer.write_u64(crc32_of(writer.bytes()));
  return std::move(writer).take_bytes();
}

namespace {

// Checks the magic, the format version and the checksum (which `bytes` loses); returns the version.
std::uint64_t check_checkpoint_envelope(std::string& bytes, const std::string& source) {
  if (bytes.size() < checksum_bytes) throw InputError("checkpoint " + source + ": the file is truncated");
  std::uint64_t stored_checksum = 0;
  std::memcpy(&stored_checksum, bytes.data() + bytes.size() - checksum_bytes, checksum_bytes);
  bytes.resize(bytes.size() - checksum_bytes);
  BinaryReader header(bytes, source);
  if (header.read_string() != checkpoint_magic) header.fail("not an rbmix training checkpoint");
  const std::uint64_t version = header.read_u64();
  if (version == 1) header.fail("written by an older rbmix (format version 1, no checksum); start the run anew");
  if (version != checkpoint_version && version != checkpoint_version_without_monitor_state &&
      version != checkpoint_version_without_monitor && version != checkpoint_version_without_errors)
    header.fail("unsupported checkpoint format version " + std::to_string(version));
  if (crc32_of(bytes) != stored_checksum)
    header.fail(
        "damaged: the CRC-32 checksum does not match the contents (the file was changed or cut after it was "
        "written)");
  return version;
}

// The run the checkpoint was written for must be this one: same options, data size and hidden units.
void read_run_identity(BinaryReader& reader, const CheckpointRun& run) {
  if (const std::string stored = reader.read_string(); stored != run.trajectory_fingerprint)
    reader.fail("it was written with different training options: " +
                fingerprint_difference(stored, run.trajectory_fingerprint));
  if (reader.read_u64() != static_cast<std::uint64_t>(run.rows) ||
      reader.read_u64() != static_cast<std::uint64_t>(run.n_visible) ||
      reader.read_u64() != static_cast<std::uint64_t>(run.n_hidden))
    reader.fail("it was written for a different data set or number of hidden units");
}

// Where the run stands: the update counter, the batch within the epoch and the epoch's order of rows.
void read_position(BinaryReader& reader, const CheckpointRun& run, TrainingState& state) {
  state.updates_done = reader.read_i64();
  const std::int64_t batch_in_epoch = reader.read_i64();
  if (state.updates_done < 0 || state.updates_done > run.planned_updates)
    reader.fail("its update counter " + std::to_string(state.updates_done) + " lies outside [0, " +
                std::to_string(run.planned_updates) + "] (--updates)");
  if (batch_in_epoch != state.updates_done % run.batches_per_epoch)
    reader.fail("its batch position " + std::to_string(batch_in_epoch) + " does not follow from update " +
                std::to_string(state.updates_done) + " with " + std::to_string(run.batches_per_epoch) +
                " batches per epoch");
  state.batch_in_epoch = static_cast<Eigen::Index>(batch_in_epoch);
  state.permutation.resize(static_cast<std::size_t>(run.rows));
  for (auto& row : state.permutation) row = reader.read_u64();
  std::vector<std::uint64_t> sorted = state.permutation;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t index = 0; index < sorted.size(); ++index)
    if (sorted[index] != index) reader.fail("the data order is not a permutation of the rows");
}

void read_parameters(BinaryReader& reader, const CheckpointRun& run, TrainingState& state) {
  state.parameters.parameters = read_model(reader, run.n_visible, run.n_hidden, "parameters");
  state.parameters.visible_offset = reader.read_vector<double>(run.n_visible, "visible offset");
  state.parameters.hidden_offset = reader.read_vector<double>(run.n_hidden, "hidden offset");
  require_unit_interval(reader, state.parameters.visible_offset, "the visible offset");
  require_unit_interval(reader, state.parameters.hidden_offset, "the hidden offset");
  state.velocity = read_model(reader, run.n_visible, run.n_hidden, "momentum");
}

// The learning curve up to `updates_done`; older format versions lack the classification errors (v2) or the
// monitored values (v3).
std::vector<EvaluationPoint> read_learning_curve(BinaryReader& reader, std::uint64_t version,
                                                 std::int64_t updates_done) {
  const std::uint64_t points = reader.read_u64();
  if (points > static_cast<std::uint64_t>(updates_done) + 1) reader.fail("the learning curve is too long");
  std::vector<EvaluationPoint> curve(points);
  std::int64_t previous_update = -1;
  for (auto& point : curve) {
    point.update = reader.read_i64();
    point.epoch = reader.read_f64();
    if (point.update <= previous_update || point.update > updates_done)
      reader.fail("the learning curve's updates are not increasing up to the update counter");
    if (!std::isfinite(point.epoch) || point.epoch < 0.0) reader.fail("a learning-curve epoch is out of range");
    previous_update = point.update;
    point.train_log_likelihood = read_optional(reader, "a training log-likelihood");
    point.test_log_likelihood = read_optional(reader, "a test log-likelihood");
    if (version == checkpoint_version_without_errors) continue;
    point.train_error = read_optional(reader, "a training classification error");
    point.test_error = read_optional(reader, "a test classification error");
    for (const auto& error : {point.train_error, point.test_error})
      if (error && !(*error >= 0.0 && *error <= 1.0)) reader.fail("a classification error lies outside [0, 1]");
    if (version == checkpoint_version_without_monitor) continue;
    for (const auto field : monitor_fields) point.*field = read_optional(reader, "a monitored value", true);
    if (version == checkpoint_version_without_monitor_state) continue;
    for (const auto field : exact_beside_fields) point.*field = read_optional(reader, "an exact log-likelihood");
  }
  return curve;
}

}  // namespace

TrainingState decode_checkpoint(std::string bytes, const std::string& source, const CheckpointRun& run,
                                NegativePhase& negative_phase) {
  const std::uint64_t version = check_checkpoint_envelope(bytes, source);
  BinaryReader reader(std::move(bytes), source);
  reader.read_string();  // magic and version, checked above
  reader.read_u64();
  read_run_identity(reader, run);
  TrainingState state;
  read_position(reader, run, state);
  state.data_stream = reader.read_stream();
  read_parameters(reader, run, state);
  state.learning_curve = read_learning_curve(reader, version, state.updates_done);
  negative_phase.load(reader);
  if (version == checkpoint_version) state.monitor_state = reader.read_string();
  if (reader.read_string() != checkpoint_magic || !reader.at_end()) reader.fail("the file does not end properly");
  return state;
}

void save_checkpoint(const std::filesystem::path& file, const CheckpointRun& run, const TrainingState& state,
                     const NegativePhase& negative_phase) {
  write_output_file(file, encode_checkpoint(run, state, negative_phase));
}

TrainingState load_checkpoint(const std::filesystem::path& file, const CheckpointRun& run,
                              NegativePhase& negative_phase) {
  return decode_checkpoint(read_file_bytes(file), file.string(), run, negative_phase);
}

}  // namespace rbmix
