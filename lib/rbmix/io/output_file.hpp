#pragma once
// The one way rbmix writes a file it was asked to produce (data, models, checkpoints, tables, plots, run
// records). What happens depends on what the path names:
//
// - a regular file, or nothing yet: the bytes go to a fresh sibling `NAME.partial.<pid>.<n>`, are flushed to disk
//   (fsync), and the sibling is renamed over NAME; the directory is then synced. A crash, a kill or a full disk
//   therefore leaves either the old file or the complete new one under NAME, never half of one. An existing
//   file's permission bits are kept.
// - a symbolic link: the link is kept and its final target is written by these rules (atomically, if the target
//   is a regular file or does not exist yet). Links under /proc (/dev/stdout, /dev/fd/N) name open descriptors
//   rather than paths, so they are written through directly.
// - a character or block device, a FIFO or a socket: written through directly, so /dev/null, /dev/stdout and
//   pipes work; nothing is created, renamed or removed.
// - a directory: refused.
//
// Every failure — cannot open, a short or failed write (ENOSPC on /dev/full or a full disk), fsync, close or
// rename — throws InputError naming the path and the reason, and leaves no temporary file behind.
#include <filesystem>
#include <string_view>

namespace rbmix {

void write_output_file(const std::filesystem::path& file, std::string_view bytes);

// Creates `directory` (and parents) if needed; throws InputError naming it if it is a file or cannot be made.
std::filesystem::path prepare_output_directory(const std::filesystem::path& directory);

}  // namespace rbmix
