// Shared by the libFuzzer targets (tests/fuzz/README.md): the input as text or as a temporary file
// for readers that take a path, and the rule every target checks. A reader must either return or
// throw UserError (bad input, exit 2 in the CLI); any other exception escapes and libFuzzer reports
// it, as it reports crashes, hangs, leaks and sanitizer findings.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "models/base/errors.h"

namespace dse::fuzz {

inline std::string text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// A path of this process's own under /tmp, ending in `suffix`.
inline std::string process_path(const std::string& suffix) {
  return "/tmp/dse_fuzz_" + std::to_string(::getpid()) + suffix;
}

// Writes `size` bytes at `data` to `path`, replacing it.
inline void write_file(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, file) != size) std::abort();
  std::fclose(file);
}

// The input written to a file of this process (rewritten for every input).
inline const std::string& as_file(const std::uint8_t* data, std::size_t size, const char* suffix) {
  static const std::string path = process_path(suffix);
  write_file(path, data, size);
  return path;
}

// Runs `read`; a UserError is the reader rejecting the input, as it should.
template <typename Read>
int expect_result_or_user_error(Read read) {
  try {
    read();
  } catch (const UserError&) {}
  return 0;
}

}  // namespace dse::fuzz
