#include "models/base/input_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "models/base/errors.h"

namespace dse {
namespace fs = std::filesystem;

const char* special_file_kind(const fs::file_status& status) {
  return fs::is_symlink(status)          ? "a symbolic link"
         : fs::is_character_file(status) ? "a character device"
         : fs::is_block_file(status)     ? "a block device"
         : fs::is_fifo(status)           ? "a FIFO"
         : fs::is_socket(status)         ? "a socket"
                                         : "not a regular file";
}

void check_input_kind(const std::string& path, std::string_view what) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error || !fs::exists(status)) throw UserError(path + ": cannot read: no such file or not readable");
  if (fs::is_directory(status)) throw UserError(path + ": cannot read: is a directory, expected " + std::string(what));
  if (!fs::is_regular_file(status)) {
    throw UserError(path + ": cannot read: expected a regular file (" + std::string(what) + "), found " +
                    special_file_kind(status));
  }
}

void check_input_file(const std::string& path, std::uint64_t max_bytes, std::string_view what) {
  check_input_kind(path, what);
  std::error_code error;
  const std::uintmax_t size = fs::file_size(path, error);
  if (!error && size > max_bytes)
    throw UserError(path + ": cannot read: expected " + std::string(what) + " of at most " +
                    std::to_string(max_bytes >> 20) + " MiB, found " + std::to_string(size >> 20) + " MiB");
}

std::string read_input_file(const std::string& path, std::uint64_t max_bytes, std::string_view what) {
  check_input_file(path, max_bytes, what);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(path + ": cannot read: " + std::strerror(errno));
  // Read into one buffer of the file's size (a string stream would hold two or three copies).
  std::error_code error;
  const std::uintmax_t size = fs::file_size(path, error);
  std::string bytes;
  if (!error) bytes.reserve(static_cast<std::size_t>(size));
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    bytes.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (bytes.size() > max_bytes)  // it grew since it was checked
      throw UserError(path + ": cannot read: expected " + std::string(what) + " of at most " +
                      std::to_string(max_bytes >> 20) + " MiB, found more");
  }
  return bytes;
}

}  // namespace dse
