#include "rbmix/training/binary_archive.hpp"

#include <bit>
#include <cstring>

#include "rbmix/core/entry_checks.hpp"
#include "rbmix/core/error.hpp"

namespace rbmix {

static_assert(std::endian::native == std::endian::little, "checkpoints are written on little-endian machines");

void BinaryWriter::append(const void* data, std::size_t size) { bytes_.append(static_cast<const char*>(data), size); }

void BinaryWriter::write_u64(std::uint64_t value) { append(&value, sizeof value); }
void BinaryWriter::write_f64(double value) { append(&value, sizeof value); }

void BinaryWriter::write_string(const std::string& text) {
  write_u64(text.size());
  append(text.data(), text.size());
}

void BinaryWriter::write_stream(const RandomStream& stream) {
  for (const std::uint64_t word : stream.state()) write_u64(word);
}

void BinaryWriter::write_streams(const std::vector<RandomStream>& streams) {
  write_u64(streams.size());
  for (const auto& stream : streams) write_stream(stream);
}

template <typename Scalar>
void BinaryWriter::write_matrix(const Matrix<Scalar>& matrix) {
  write_u64(static_cast<std::uint64_t>(matrix.rows()));
  write_u64(static_cast<std::uint64_t>(matrix.cols()));
  append(matrix.data(), static_cast<std::size_t>(matrix.size()) * sizeof(Scalar));
}

template <typename Scalar>
void BinaryWriter::write_vector(const Vector<Scalar>& vector) {
  write_u64(static_cast<std::uint64_t>(vector.size()));
  append(vector.data(), static_cast<std::size_t>(vector.size()) * sizeof(Scalar));
}

void BinaryReader::fail(const std::string& message) const {
  throw InputError(kind_ + " " + source_ + ": " + message);
}

void BinaryReader::take(void* data, std::size_t size) {
  if (bytes_.size() - position_ < size) fail("the file is truncated");
  std::memcpy(data, bytes_.data() + position_, size);
  position_ += size;
}

std::uint64_t BinaryReader::read_u64() {
  std::uint64_t value = 0;
  take(&value, sizeof value);
  return value;
}

double BinaryReader::read_f64() {
  double value = 0;
  take(&value, sizeof value);
  return value;
}

bool BinaryReader::read_flag(const std::string& what) {
  const std::uint64_t value = read_u64();
  if (value > 1) fail(what + ": flag " + std::to_string(value) + " is neither 0 nor 1");
  return value == 1;
}

std::string BinaryReader::read_string() {
  const std::uint64_t size = read_u64();
  if (size > bytes_.size() - position_) fail("the file is truncated");
  std::string text(bytes_.data() + position_, size);
  position_ += size;
  return text;
}

RandomStream BinaryReader::read_stream() {
  RandomStream::State state{};
  for (auto& word : state) word = read_u64();
  // xoshiro's all-zero state is a fixed point: no generator ever reaches it, so it marks a damaged file.
  if (state == RandomStream::State{}) fail("a random-stream state is all zero");
  return RandomStream(state);
}

std::vector<RandomStream> BinaryReader::read_streams(std::size_t count, const std::string& what) {
  const std::uint64_t stored = read_u64();
  if (stored != count)
    fail(what + ": expected " + std::to_string(count) + " random streams, found " + std::to_string(stored));
  std::vector<RandomStream> streams;
  streams.reserve(count);
  for (std::size_t index = 0; index < count; ++index) streams.push_back(read_stream());
  return streams;
}

template <typename Scalar>
Matrix<Scalar> BinaryReader::read_matrix(Eigen::Index rows, Eigen::Index cols, const std::string& what) {
  const std::uint64_t stored_rows = read_u64();
  const std::uint64_t stored_cols = read_u64();
  if (stored_rows != static_cast<std::uint64_t>(rows) || stored_cols != static_cast<std::uint64_t>(cols))
    fail(what + ": expected a " + std::to_string(rows) + "×" + std::to_string(cols) + " matrix, found " +
         std::to_string(stored_rows) + "×" + std::to_string(stored_cols));
  Matrix<Scalar> matrix(rows, cols);
  take(matrix.data(), static_cast<std::size_t>(matrix.size()) * sizeof(Scalar));
  if (!matrix.allFinite()) fail(what + ": an entry is NaN or infinite");
  return matrix;
}

template <typename Scalar>
Matrix<Scalar> BinaryReader::read_state_matrix(Eigen::Index rows, Eigen::Index cols, const std::string& what) {
  Matrix<Scalar> states = read_matrix<Scalar>(rows, cols, what);
  if (!all_binary(states)) fail(what + ": a state is neither 0 nor 1");
  return states;
}

template <typename Scalar>
Vector<Scalar> BinaryReader::read_vector(Eigen::Index size, const std::string& what) {
  const std::uint64_t stored = read_u64();
  if (stored != static_cast<std::uint64_t>(size))
    fail(what + ": expected " + std::to_string(size) + " entries, found " + std::to_string(stored));
  Vector<Scalar> vector(size);
  take(vector.data(), static_cast<std::size_t>(vector.size()) * sizeof(Scalar));
  if (!vector.allFinite()) fail(what + ": an entry is NaN or infinite");
  return vector;
}

template void BinaryWriter::write_matrix<float>(const Matrix<float>&);
template void BinaryWriter::write_matrix<double>(const Matrix<double>&);
template void BinaryWriter::write_vector<float>(const Vector<float>&);
template void BinaryWriter::write_vector<double>(const Vector<double>&);
template Matrix<float> BinaryReader::read_matrix<float>(Eigen::Index, Eigen::Index, const std::string&);
template Matrix<double> BinaryReader::read_matrix<double>(Eigen::Index, Eigen::Index, const std::string&);
template Vector<float> BinaryReader::read_vector<float>(Eigen::Index, const std::string&);
template Vector<double> BinaryReader::read_vector<double>(Eigen::Index, const std::string&);
template Matrix<float> BinaryReader::read_state_matrix<float>(Eigen::Index, Eigen::Index, const std::string&);
template Matrix<double> BinaryReader::read_state_matrix<double>(Eigen::Index, Eigen::Index, const std::string&);

}  // namespace rbmix
