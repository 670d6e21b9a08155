#pragma once
// Whole-file reads for the binary formats. Failures name the file and the reason (InputError). Writing is
// output_file.hpp's.
#include <filesystem>
#include <string>

namespace rbmix {

std::string read_file_bytes(const std::filesystem::path& file);

}  // namespace rbmix
