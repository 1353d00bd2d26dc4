// Writing a result file so that a crash never leaves a half-written file under the final name:
// write to a temporary name in the same folder, then rename over the final name (atomic on POSIX).
#pragma once

#include <string>

namespace dse {

class AtomicFile {
 public:
  // Creates missing parent folders; UserError "PATH: cannot write: ..." if that fails.
  explicit AtomicFile(std::string final_path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  // Removes the temporary file unless commit() succeeded.
  ~AtomicFile();

  const std::string& temp_path() const { return temp_path_; }
  const std::string& final_path() const { return final_path_; }
  // Renames the temporary file to the final name.
  void commit();
  // Before a run's work: removes PATH.tmp-PID files left by processes that no longer run, then
  // creates and removes this temporary file: UserError with the system's reason where the folder
  // is not writable, so a run stops before its work rather than after.
  void check_writable() const;

 private:
  void remove_stale_temporaries() const;

  std::string final_path_;
  std::string temp_path_;
  bool committed_ = false;
};

// Writes `content` to `path` through an AtomicFile.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace dse
