#include "sim/output/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

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
  check_output_target(final_path_, " (results are written to a temporary file and renamed over the target)");
  temp_path_ = final_path_ + ".tmp-" + std::to_string(::getpid());
}

void check_output_target(const std::string& path, std::string_view note) {
  std::error_code error;
  const fs::file_status status = fs::symlink_status(path, error);
  if (!error && fs::exists(status) && !fs::is_regular_file(status)) {
    throw UserError(path + ": cannot write: expected a regular file or a new path for the output, found " +
                    special_file_kind(status) + std::string(note));
  }
}

std::FILE* AtomicFile::create_temporary() {
  const auto open_new = [&] {
    errno = 0;
    return ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  };
  int fd = open_new();
  if (fd < 0 && errno == EEXIST) {
    // Ours by name: a plain file there is a killed run's (its PID now this one's); anything else
    // was put there by someone else, and is not written through.
    struct stat there {};
    if (::lstat(temp_path_.c_str(), &there) == 0 && S_ISREG(there.st_mode) && there.st_nlink == 1 &&
        std::remove(temp_path_.c_str()) == 0) {
      fd = open_new();
    } else {
      std::error_code ignored;
      const fs::file_status status = fs::symlink_status(temp_path_, ignored);
      throw UserError(final_path_ + ": cannot write: " + temp_path_ + ", the temporary file's name, is taken by " +
                      (fs::is_regular_file(status) ? std::string("a file with other names (a hard link)")
                                                   : std::string(special_file_kind(status))) +
                      " that dse did not create; remove it");
    }
  }
  if (fd < 0)
    throw UserError(final_path_ + ": cannot write: cannot create " + temp_path_ + ": " + std::strerror(errno));
  created_ = true;
  std::FILE* file = ::fdopen(fd, "wb");
  if (!file) {
    const int reason = errno;
    ::close(fd);
    throw UserError(final_path_ + ": cannot write: cannot create " + temp_path_ + ": " + std::strerror(reason));
  }
  return file;
}

void AtomicFile::write(const std::string& content) {
  std::FILE* file = create_temporary();
  errno = 0;
  const bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size() && std::fflush(file) == 0;
  const int reason = errno;
  if (std::fclose(file) != 0 || !written) {
    const int cause = reason ? reason : errno;
    throw UserError(final_path_ + ": cannot write: writing " + temp_path_ + " failed" +
                    (cause ? std::string(": ") + std::strerror(cause) : std::string()));
  }
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
  if (created_ && !committed_) std::remove(temp_path_.c_str());
}

void AtomicFile::check_writable() {
  remove_stale_temporaries();
  std::fclose(create_temporary());
  std::remove(temp_path_.c_str());
  created_ = false;
}

void AtomicFile::commit() {
  std::error_code error;
  fs::rename(temp_path_, final_path_, error);
  if (error) throw UserError(final_path_ + ": cannot write: rename from " + temp_path_ + " failed: " + error.message());
  committed_ = true;
}

void write_file_atomically(const std::string& path, const std::string& content) {
  AtomicFile file(path);
  file.write(content);
  file.commit();
}

}  // namespace dse
