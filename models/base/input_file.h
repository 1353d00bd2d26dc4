// Reading a file the user named (a config, spec, model, measurement CSV): only regular files, and
// only up to a size limit, so `dse run /dev/zero`, a FIFO or a terminal is refused at once instead of
// read forever, and a file too large to be what it claims is refused before it fills memory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace dse {

// Limits (documented in docs/config.md): text inputs (YAML, CSV, SCALE-Sim cfg) 64 MiB; ONNX
// models 2 GiB, protobuf's own limit for one message.
inline constexpr std::uint64_t kMaxTextInputBytes = 64ull << 20;
inline constexpr std::uint64_t kMaxOnnxInputBytes = 2ull << 30;

// UserError "PATH: cannot read: ..." unless `path` is a readable regular file of at most
// `max_bytes`; `what` names what was expected ("a YAML file").
void check_input_file(const std::string& path, std::uint64_t max_bytes, std::string_view what);
// The same without the size limit, for files read a line at a time (journals).
void check_input_kind(const std::string& path, std::string_view what);
// What a file that is not a regular one is, for messages: "a symbolic link" (for a status taken
// with symlink_status), "a character device", "a block device", "a FIFO", "a socket".
const char* special_file_kind(const std::filesystem::file_status& status);

// check_input_file, then the file's bytes.
std::string read_input_file(const std::string& path, std::uint64_t max_bytes, std::string_view what);

}  // namespace dse
