// A small writer over HDF5's C API for dse's result files: groups, scalar strings and numbers, and
// columns (1-D datasets) of strings, doubles and integers. The file is built in memory and written
// under a temporary name by commit(), then renamed, so a crash never leaves a half-written file
// under the final name and a full disk is a UserError with its reason, the temporary removed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/metrics/metric_table.h"
#include "sim/output/atomic_file.h"

namespace dse {

class Hdf5File {
 public:
  // UserError "PATH: cannot write: ..." if the file cannot be created.
  explicit Hdf5File(const std::string& path);
  ~Hdf5File();
  Hdf5File(const Hdf5File&) = delete;
  Hdf5File& operator=(const Hdf5File&) = delete;

  // Paths are absolute within the file ("/summary/latency_ms"); parent groups must exist.
  void group(const std::string& path);
  void string(const std::string& path, const std::string& value);
  void number(const std::string& path, double value);
  void strings(const std::string& path, const std::vector<std::string>& values);
  void doubles(const std::string& path, const std::vector<double>& values);
  void integers(const std::string& path, const std::vector<std::int64_t>& values);
  // Writes the file out and renames it to the final name; UserError with the system's reason if the
  // write fails (nothing is left under either name then).
  void commit();

 private:
  AtomicFile target_;
  std::int64_t file_ = -1;  // the in-memory HDF5 file
  void* out_ = nullptr;     // std::FILE* of the temporary file commit() writes
};

// The /meta group every result file has: the run's kind ("single", "serving", "search",
// "validation"), dse version, git commit, date, host, config file, and the hardware files used
// (path and verbatim content).
struct HardwareFile;
void write_meta(Hdf5File& file, const std::string& kind, const std::string& config_file, const std::string& calibration,
                const std::vector<std::string>& hardware_paths, const std::vector<std::string>& hardware_contents);

// A metric table as a group of four columns, one row per metric in the table's order: name, value,
// unit and description (the last two from sim/metrics/metric_catalog.h).
void write_metric_table(Hdf5File& file, const std::string& group, const MetricTable& metrics);

}  // namespace dse
