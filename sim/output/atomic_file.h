// Writing a result file so that a crash never leaves a half-written file under the final name:
// write to a temporary name in the same folder, then rename over the final name (atomic on POSIX).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace dse {

class AtomicFile {
 public:
  // Creates missing parent folders; UserError "PATH: cannot write: ..." if that fails.
  explicit AtomicFile(std::string final_path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  // Removes the temporary file it created unless commit() succeeded.
  ~AtomicFile();

  const std::string& temp_path() const { return temp_path_; }
  const std::string& final_path() const { return final_path_; }
  // Creates the temporary file for writing, as a new file (O_EXCL) and never through a link
  // (O_NOFOLLOW): a symlink planted at PATH.tmp-PID is refused, not followed; a plain file left
  // there (a killed run whose PID this one has) is replaced. UserError "PATH: cannot write: ..."
  // otherwise. The caller closes the file.
  std::FILE* create_temporary();
  // Writes `content` to a new temporary file (create_temporary); UserError with the system's reason.
  void write(const std::string& content);
  // Renames the temporary file to the final name.
  void commit();
  // Before a run's work: removes PATH.tmp-PID files left by processes that no longer run, then
  // creates and removes this temporary file: UserError with the system's reason where the folder
  // is not writable, so a run stops before its work rather than after.
  void check_writable();

 private:
  void remove_stale_temporaries() const;

  std::string final_path_;
  std::string temp_path_;
  bool created_ = false;  // the temporary file is this object's
  bool committed_ = false;
};

// UserError "PATH: cannot write: expected a regular file or a new path for the output, found ..."
// (then `note`) where something other than a regular file is at `path`: renaming or writing over a
// device node, a FIFO or a symlink would replace it or write to what it points to.
void check_output_target(const std::string& path, std::string_view note = "");

// Writes `content` to `path` through an AtomicFile.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace dse
