#include "sim/output/atomic_file.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "models/base/errors.h"
#include "models/base/input_file.h"

namespace dse {
namespace fs = std::filesystem;

AtomicFile::AtomicFile(std::string final_path) : final_path_(std::move(final_path)) {
  if (final_path_.empty()) throw UserError("(output): cannot write: empty file name");
  const fs::path parent = fs::path(final_path_).parent_path();
  std::error_code error;
  if (!parent.empty()) fs::create_directories(parent, error);
  if (error)
    throw UserError(final_path_ + ": cannot write: cannot create folder " + parent.string() + ": " + error.message());
  if (fs::is_directory(final_path_, error)) throw UserError(final_path_ + ": cannot write: is a directory");
  // Renaming over anything but a regular file would replace it: a device node such as /dev/null
  // (as root), a FIFO, or a symlink and not the file it points to. Refused before any work.
  const fs::file_status status = fs::symlink_status(final_path_, error);
  if (!error && fs::exists(status) && !fs::is_regular_file(status)) {
    throw UserError(final_path_ + ": cannot write: expected a regular file or a new path for the output, found " +
                    special_file_kind(status) +
                    " (results are written to a temporary file and renamed over the target)");
  }
  temp_path_ = final_path_ + ".tmp-" + std::to_string(::getpid());
}

void AtomicFile::remove_stale_temporaries() const {
  // FINAL.tmp-PID files of processes that no longer run (a kill -9 mid-write) are removed; a live
  // process's are left alone.
  const fs::path final_path(final_path_);
  const std::string prefix = final_path.filename().string() + ".tmp-";
  const fs::path folder = final_path.has_parent_path() ? final_path.parent_path() : fs::path(".");
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) continue;
    const pid_t pid = static_cast<pid_t>(std::stol(digits));
    if (pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    std::error_code ignored;
    fs::remove(it->path(), ignored);
  }
}

AtomicFile::~AtomicFile() {
  if (!committed_) std::remove(temp_path_.c_str());
}

void AtomicFile::check_writable() const {
  remove_stale_temporaries();
  errno = 0;
  std::FILE* probe = std::fopen(temp_path_.c_str(), "wb");
  if (!probe)
    throw UserError(final_path_ + ": cannot write: cannot create " + temp_path_ + ": " + std::strerror(errno));
  std::fclose(probe);
  std::remove(temp_path_.c_str());
}

void AtomicFile::commit() {
  std::error_code error;
  fs::rename(temp_path_, final_path_, error);
  if (error) throw UserError(final_path_ + ": cannot write: rename from " + temp_path_ + " failed: " + error.message());
  committed_ = true;
}

void write_file_atomically(const std::string& path, const std::string& content) {
  AtomicFile file(path);
  {
    std::ofstream out(file.temp_path(), std::ios::binary | std::ios::trunc);
    errno = 0;
    out << content;
    out.flush();
    if (!out)
      throw UserError(path + ": cannot write: writing " + file.temp_path() + " failed" +
                      (errno ? std::string(": ") + std::strerror(errno) : std::string()));
  }
  file.commit();
}

}  // namespace dse
