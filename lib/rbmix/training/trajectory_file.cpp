#include "rbmix/training/trajectory_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <string_view>

#include "rbmix/core/entry_checks.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/io/crc32.hpp"
#include "rbmix/io/file_bytes.hpp"
#include "rbmix/io/output_file.hpp"
#include "rbmix/training/binary_archive.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix {
namespace {

constexpr std::string_view trajectory_magic = "RBMIXTRJ";
constexpr std::size_t frame_word = sizeof(std::uint64_t);

// byte count · payload · CRC-32 of the payload.
std::string framed(const std::string& payload) {
  BinaryWriter frame;
  frame.write_u64(payload.size());
  std::string bytes = std::move(frame).take_bytes();
  bytes += payload;
  BinaryWriter checksum;
  checksum.write_u64(crc32_of(payload));
  bytes += checksum.bytes();
  return bytes;
}

std::string header_payload(Eigen::Index n_visible, Eigen::Index n_hidden, const std::string& configuration,
                           const VectorD& data_visible_means) {
  BinaryWriter writer;
  writer.write_string(std::string(trajectory_magic));
  writer.write_u64(trajectory_format_version);
  writer.write_u64(static_cast<std::uint64_t>(n_visible));
  writer.write_u64(static_cast<std::uint64_t>(n_hidden));
  writer.write_string(configuration);
  writer.write_vector(data_visible_means);
  return std::move(writer).take_bytes();
}

std::string model_payload(std::int64_t update, const Rbm& parameters) {
  BinaryWriter writer;
  writer.write_i64(update);
  writer.write_matrix(parameters.weights);
  writer.write_vector(parameters.visible_bias);
  writer.write_vector(parameters.hidden_bias);
  return std::move(writer).take_bytes();
}

std::uint64_t read_word(const std::string& bytes, std::size_t position) {
  std::uint64_t word = 0;
  std::memcpy(&word, bytes.data() + position, frame_word);
  return word;
}

// The frames of a trajectory file: each payload with the offset just past its frame. A cut or damaged frame is
// refused, naming it (`describe` says which record it is).
struct Frame {
  std::string payload;
  std::size_t end = 0;
};

[[noreturn]] void refuse(const std::string& source, const std::string& why) {
  throw InputError("trajectory " + source + ": " + why);
}

Frame read_frame(const std::string& bytes, std::size_t position, const std::string& source,
                 const std::string& record) {
  if (bytes.size() - position < frame_word) refuse(source, record + " is cut short (the file ends inside it)");
  const std::uint64_t size = read_word(bytes, position);
  if (size > bytes.size() - position - frame_word || bytes.size() - position - frame_word - size < frame_word)
    refuse(source, record + " is cut short (the file ends inside it)");
  Frame frame;
  frame.payload = bytes.substr(position + frame_word, size);
  frame.end = position + frame_word + size + frame_word;
  if (read_word(bytes, position + frame_word + size) != crc32_of(frame.payload))
    refuse(source, record + " is damaged: its CRC-32 checksum does not match its contents");
  return frame;
}

struct Header {
  Eigen::Index n_visible = 0;
  Eigen::Index n_hidden = 0;
  std::string configuration;
  VectorD data_visible_means;
  std::size_t end = 0;
};

Header read_header(const std::string& bytes, const std::string& source) {
  if (bytes.size() < frame_word + trajectory_magic.size() + frame_word ||
      bytes.compare(2 * frame_word, trajectory_magic.size(), trajectory_magic) != 0)
    refuse(source, "not an rbmix trajectory file");
  const Frame frame = read_frame(bytes, 0, source, "the header");
  BinaryReader reader(frame.payload, source, "trajectory");
  reader.read_string();
  if (const std::uint64_t version = reader.read_u64(); version != trajectory_format_version)
    reader.fail("unsupported trajectory format version " + std::to_string(version));
  Header header;
  header.n_visible = static_cast<Eigen::Index>(reader.read_u64());
  header.n_hidden = static_cast<Eigen::Index>(reader.read_u64());
  // 2^24 units per layer is far beyond any model rbmix trains; larger counts are damage, not a model.
  constexpr std::uint64_t most_units = std::uint64_t{1} << 24;
  if (header.n_visible < 1 || header.n_hidden < 1 || static_cast<std::uint64_t>(header.n_visible) > most_units ||
      static_cast<std::uint64_t>(header.n_hidden) > most_units)
    reader.fail("the header's layer sizes " + std::to_string(header.n_visible) + " × " +
                std::to_string(header.n_hidden) + " are not those of a model");
  header.configuration = reader.read_string();
  header.data_visible_means = reader.read_vector<double>(header.n_visible, "the training rows' visible means");
  if (!all_in_unit_interval(header.data_visible_means)) reader.fail("the visible means lie outside [0, 1]");
  if (!reader.at_end()) reader.fail("the header has bytes after its last field");
  header.end = frame.end;
  return header;
}

std::string record_name(std::size_t index) { return "record " + std::to_string(index + 1); }

TrajectoryModel read_model(const std::string& payload, const Header& header, const std::string& source,
                           const std::string& record) {
  BinaryReader reader(payload, source, "trajectory");
  TrajectoryModel model;
  model.update = reader.read_i64();
  const std::string what = record + " (update " + std::to_string(model.update) + ")";
  if (model.update < 0) reader.fail(what + " has a negative update number");
  // read_matrix refuses another shape and non-finite entries, naming what it reads.
  model.parameters.weights = reader.read_matrix<double>(header.n_hidden, header.n_visible, what + " W");
  model.parameters.visible_bias = reader.read_vector<double>(header.n_visible, what + " visible bias");
  model.parameters.hidden_bias = reader.read_vector<double>(header.n_hidden, what + " hidden bias");
  if (!reader.at_end()) reader.fail(what + " has bytes after its last field");
  return model;
}

void write_all(int descriptor, const std::string& bytes, const std::filesystem::path& file) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t count = ::write(descriptor, bytes.data() + written, bytes.size() - written);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) {
      const int error = errno;
      ::close(descriptor);
      throw InputError("trajectory " + file.string() + ": cannot append a model: " + std::strerror(error));
    }
    written += static_cast<std::size_t>(count);
  }
}

}  // namespace

Rbm Trajectory::independent_model() const {
  Rbm model(n_visible, n_hidden);
  for (Eigen::Index unit = 0; unit < n_visible; ++unit) {
    const double p = std::clamp(data_visible_means[unit], base_rate_clip, 1.0 - base_rate_clip);
    model.visible_bias[unit] = std::log(p / (1.0 - p));
  }
  if (!models.empty()) model.hidden_bias = models.front().parameters.hidden_bias;
  return model;
}

std::string to_string(TrajectorySpacing spacing) {
  return spacing == TrajectorySpacing::linear ? "linear" : "geometric";
}

TrajectorySpacing parse_trajectory_spacing(const std::string& text) {
  if (text == "linear") return TrajectorySpacing::linear;
  if (text == "geometric") return TrajectorySpacing::geometric;
  throw InputError("trajectory spacing: expected linear or geometric, got '" + text + "'");
}

std::vector<std::int64_t> trajectory_schedule(std::int64_t planned_updates, std::int64_t models,
                                              TrajectorySpacing spacing) {
  require(planned_updates >= 1, "trajectory schedule: the run must plan at least 1 update");
  require(models >= 2, "trajectory schedule: a trajectory keeps at least 2 models (the first and the last), got " +
                           std::to_string(models));
  std::vector<std::int64_t> updates;
  updates.reserve(static_cast<std::size_t>(models));
  const double last = static_cast<double>(planned_updates);
  for (std::int64_t index = 0; index < models; ++index) {
    const double fraction = static_cast<double>(index) / static_cast<double>(models - 1);
    // geometric: evenly spaced in log(1 + update), so update u is kept at position log(1 + u) / log(1 + U).
    const double position = spacing == TrajectorySpacing::linear ? fraction * last
                                                                  : std::expm1(fraction * std::log1p(last));
    updates.push_back(std::clamp<std::int64_t>(std::llround(position), 0, planned_updates));
  }
  updates.front() = 0;
  updates.back() = planned_updates;
  updates.erase(std::unique(updates.begin(), updates.end()), updates.end());
  return updates;
}

ModelPath trajectory_path(const Trajectory& trajectory, const std::string& source) {
  require(trajectory.models.size() >= 2, "trajectory " + source + ": it holds " +
                                             std::to_string(trajectory.models.size()) +
                                             " model(s); a ladder along a trajectory needs at least 2");
  std::vector<Rbm> knots{trajectory.independent_model()};
  std::vector<std::string> labels{"independent"};
  for (const auto& model : trajectory.models) {
    knots.push_back(model.parameters);
    labels.push_back("update " + std::to_string(model.update));
  }
  return {std::move(knots), std::move(labels)};
}

Trajectory read_trajectory(const std::filesystem::path& file) {
  const std::string source = file.string();
  const std::string bytes = read_file_bytes(file);
  const Header header = read_header(bytes, source);
  Trajectory trajectory;
  trajectory.n_visible = header.n_visible;
  trajectory.n_hidden = header.n_hidden;
  trajectory.configuration = header.configuration;
  trajectory.data_visible_means = header.data_visible_means;
  for (std::size_t position = header.end; position < bytes.size();) {
    const std::string record = record_name(trajectory.models.size());
    const Frame frame = read_frame(bytes, position, source, record);
    TrajectoryModel model = read_model(frame.payload, header, source, record);
    if (!trajectory.models.empty() && model.update <= trajectory.models.back().update)
      refuse(source, record + " has update " + std::to_string(model.update) + ", not after the previous record's " +
                         std::to_string(trajectory.models.back().update) + ": update numbers must increase");
    trajectory.models.push_back(std::move(model));
    position = frame.end;
  }
  return trajectory;
}

TrajectoryWriter TrajectoryWriter::open(const std::filesystem::path& file, Eigen::Index n_visible,
                                        Eigen::Index n_hidden, const std::string& configuration,
                                        const VectorD& data_visible_means,
                                        std::optional<std::int64_t> resume_at_update) {
  TrajectoryWriter writer;
  writer.file_ = file;
  writer.n_visible_ = n_visible;
  writer.n_hidden_ = n_hidden;
  if (!resume_at_update) {
    write_output_file(file, framed(header_payload(n_visible, n_hidden, configuration, data_visible_means)));
    return writer;
  }
  const std::string source = file.string();
  if (!std::filesystem::exists(file))
    refuse(source, "--resume: the run keeps a trajectory, but its file is missing");
  const std::string bytes = read_file_bytes(file);
  const Header header = read_header(bytes, source);
  if (header.n_visible != n_visible || header.n_hidden != n_hidden)
    refuse(source, "it holds " + std::to_string(header.n_visible) + " × " + std::to_string(header.n_hidden) +
                       " models, but the run trains " + std::to_string(n_visible) + " × " + std::to_string(n_hidden));
  if (header.configuration != configuration)
    refuse(source, "it was written by a run with other training options or another trajectory schedule (" +
                       header.configuration + "), not by the run being resumed (" + configuration + ")");
  // Keep the models at or before the checkpoint; a record after it, cut or whole, is saved again by the resumed
  // run. A damaged record before it is refused: that model would be lost.
  std::size_t keep = header.end;
  for (std::size_t position = header.end, index = 0; position < bytes.size(); ++index) {
    const std::string record = record_name(index);
    if (bytes.size() - position < frame_word) break;
    const std::uint64_t size = read_word(bytes, position);
    if (size < frame_word || size > bytes.size() - position - frame_word) break;
    const std::int64_t update = static_cast<std::int64_t>(read_word(bytes, position + frame_word));
    if (update > *resume_at_update) break;
    const Frame frame = read_frame(bytes, position, source, record);
    const TrajectoryModel model = read_model(frame.payload, header, source, record);
    if (model.update <= writer.last_update_)
      refuse(source, record + " has update " + std::to_string(model.update) + ", not after the previous record's");
    writer.last_update_ = model.update;
    position = keep = frame.end;
  }
  std::error_code error;
  std::filesystem::resize_file(file, keep, error);
  if (error) refuse(source, "cannot truncate it to the checkpoint's models: " + error.message());
  return writer;
}

void TrajectoryWriter::append(std::int64_t update, const Rbm& parameters) {
  require(is_open(), "trajectory: append on a writer that was never opened");
  require(update > last_update_, "trajectory " + file_.string() + ": update " + std::to_string(update) +
                                     " does not follow the last saved update " + std::to_string(last_update_));
  require(parameters.n_visible() == n_visible_ && parameters.n_hidden() == n_hidden_,
          "trajectory " + file_.string() + ": a model of another shape");
  const std::string bytes = framed(model_payload(update, parameters));
  const int descriptor = ::open(file_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (descriptor < 0)
    throw InputError("trajectory " + file_.string() + ": cannot open it to append a model: " + std::strerror(errno));
  write_all(descriptor, bytes, file_);
  const bool synced = ::fsync(descriptor) == 0;
  const int sync_error = errno;
  if (::close(descriptor) != 0 || !synced)
    throw InputError("trajectory " + file_.string() + ": cannot flush an appended model: " +
                     std::strerror(synced ? errno : sync_error));
  last_update_ = update;
}

}  // namespace rbmix
