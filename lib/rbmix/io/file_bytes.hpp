#pragma once
// Whole-file reads and writes for the binary formats. Failures name the file and the reason (InputError).
// Writes go to a temporary sibling first and are renamed into place, so a crash or a full disk never leaves a
// half-written model or data file under the requested name.
#include <filesystem>
#include <string>
#include <string_view>

namespace rbmix {

std::string read_file_bytes(const std::filesystem::path& file);
void write_file_bytes(const std::filesystem::path& file, std::string_view bytes);

}  // namespace rbmix
