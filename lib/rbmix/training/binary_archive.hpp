#pragma once
// BinaryWriter / BinaryReader: the little-endian binary records of a training checkpoint (matrices with their
// shapes, random-stream states, counters). The reader checks every shape against what the caller expects, refuses
// NaN or infinite matrix entries (a trainer never saves them), and turns a short or malformed file into an
// InputError naming the file, so a damaged checkpoint never loads.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix {

class BinaryWriter {
 public:
  void write_u64(std::uint64_t value);
  void write_i64(std::int64_t value) { write_u64(static_cast<std::uint64_t>(value)); }
  void write_f64(double value);
  void write_string(const std::string& text);
  void write_stream(const RandomStream& stream);
  void write_streams(const std::vector<RandomStream>& streams);
  // Shape then entries; float matrices are stored as float.
  template <typename Scalar>
  void write_matrix(const Matrix<Scalar>& matrix);
  template <typename Scalar>
  void write_vector(const Vector<Scalar>& vector);

  const std::string& bytes() const { return bytes_; }
  // The record, moved out: a checkpoint of a 784 × 500 run is about 10 MB, and a copy of it costs its page faults.
  std::string take_bytes() && { return std::move(bytes_); }

 private:
  void append(const void* data, std::size_t size);
  std::string bytes_;
};

class BinaryReader {
 public:
  // `source` names the file in error messages, after `kind` ("checkpoint FILE: why", "trajectory FILE: why").
  BinaryReader(std::string bytes, std::string source, std::string kind = "checkpoint")
      : bytes_(std::move(bytes)), source_(std::move(source)), kind_(std::move(kind)) {}

  std::uint64_t read_u64();
  std::int64_t read_i64() { return static_cast<std::int64_t>(read_u64()); }
  double read_f64();
  // A u64 that must be 0 or 1.
  bool read_flag(const std::string& what);
  std::string read_string();
  RandomStream read_stream();
  // Reads `count` streams; throws unless the stored count equals it.
  std::vector<RandomStream> read_streams(std::size_t count, const std::string& what);
  // Throws unless the stored shape is rows × cols.
  template <typename Scalar>
  Matrix<Scalar> read_matrix(Eigen::Index rows, Eigen::Index cols, const std::string& what);
  template <typename Scalar>
  Vector<Scalar> read_vector(Eigen::Index size, const std::string& what);
  // A matrix of unit states: every entry exactly 0 or 1.
  template <typename Scalar>
  Matrix<Scalar> read_state_matrix(Eigen::Index rows, Eigen::Index cols, const std::string& what);

  bool at_end() const { return position_ == bytes_.size(); }
  [[noreturn]] void fail(const std::string& message) const;

 private:
  void take(void* data, std::size_t size);
  std::string bytes_;
  std::string source_;
  std::string kind_;
  std::size_t position_ = 0;
};

}  // namespace rbmix
