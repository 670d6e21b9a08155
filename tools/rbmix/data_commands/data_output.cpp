#include "data_output.hpp"

#include <algorithm>
#include <iostream>

#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/npy.hpp"

namespace rbmix::cli {

// Saves `data` and says so.
void save_and_report(const std::string& file, const BinaryMatrix& data) {
  save_binary_matrix(file, data);
  std::cout << "wrote " << file << " (" << data.rows() << " × " << data.cols() << ")\n";
}

void save_labels(const std::filesystem::path& file, const std::vector<std::uint8_t>& labels) {
  Vector<std::uint8_t> vector(static_cast<Eigen::Index>(labels.size()));
  std::copy(labels.begin(), labels.end(), vector.data());
  write_npy(file, vector_to_npy(vector));
  std::cout << "wrote " << file.string() << " (" << labels.size() << " labels)\n";
}

}  // namespace rbmix::cli
