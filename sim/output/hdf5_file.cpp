#include "sim/output/hdf5_file.h"

#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <vector>

#include "models/base/errors.h"
#include "sim/output/build_info.h"

namespace dse {
namespace {

// Closes an HDF5 handle when it goes out of scope.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t), const std::string& what) : id_(id), close_(close) {
    if (id_ < 0) throw std::runtime_error("HDF5: cannot create " + what);
  }
  Handle(Handle&& other) noexcept : id_(other.id_), close_(other.close_) { other.id_ = -1; }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  hid_t get() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

void check(herr_t status, const std::string& what) {
  if (status < 0) throw std::runtime_error("HDF5: cannot write " + what);
}

Handle string_type() {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
  check(H5Tset_size(type.get(), H5T_VARIABLE), "string type");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "string type");
  return type;
}

// Columns of at least this many rows are stored compressed: in chunks of up to kChunkRows rows,
// byte-shuffled and deflated (zlib level 4). Per-request and per-trial columns of a long run are
// mostly repeats and slowly varying numbers: a 120 s serving run's 16.5 MB of columns take 4.3 MB.
// h5py, h5dump and every HDF5 reader decode it transparently; shorter columns stay contiguous.
constexpr std::size_t kCompressFromRows = 1024;
constexpr hsize_t kChunkRows = 16384;

// The dataset creation list of a column of `rows` rows: compressed when long and zlib is there.
Handle column_layout(std::size_t rows, const std::string& path) {
  Handle layout(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "dataset creation list of " + path);
  if (rows < kCompressFromRows || H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0) return layout;
  const std::array<hsize_t, 1> chunk{std::min<hsize_t>(rows, kChunkRows)};
  check(H5Pset_chunk(layout.get(), 1, chunk.data()), path);
  check(H5Pset_shuffle(layout.get()), path);
  check(H5Pset_deflate(layout.get(), 4), path);
  return layout;
}

template <class T>
void write_column(hid_t file, const std::string& path, hid_t memory_type, const std::vector<T>& values) {
  const std::array<hsize_t, 1> size{values.size()};
  const Handle space(H5Screate_simple(1, size.data(), nullptr), H5Sclose, path);
  const Handle layout = column_layout(values.size(), path);
  const Handle set(H5Dcreate2(file, path.c_str(), memory_type, space.get(), H5P_DEFAULT, layout.get(), H5P_DEFAULT),
                   H5Dclose, path);
  if (!values.empty()) check(H5Dwrite(set.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), path);
}

std::string host_name() {
  std::array<char, 256> name{};
  return gethostname(name.data(), name.size() - 1) == 0 ? std::string(name.data()) : "unknown";
}

}  // namespace

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

Hdf5File::Hdf5File(const std::string& path) : target_(path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors become exceptions, not stderr noise
  // The file is built in memory (HDF5's core driver, no backing store) and written out by
  // commit() with checked writes: HDF5 itself never writes to disk, so a full disk is reported with
  // the system's reason instead of failing inside HDF5 (which then crashed closing the file at exit).
  // The temporary file is opened now, so an unwritable output stops the run before any work.
  out_ = target_.create_temporary();
  const Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "file access list");
  check(H5Pset_fapl_core(access.get(), 1 << 20, 0), "in-memory file");
  file_ = H5Fcreate(target_.temp_path().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get());
  if (file_ < 0) {
    std::fclose(static_cast<std::FILE*>(out_));
    throw UserError(path + ": cannot write: HDF5 cannot create an in-memory file");
  }
}

Hdf5File::~Hdf5File() {
  if (file_ >= 0) H5Fclose(static_cast<hid_t>(file_));
  if (out_) std::fclose(static_cast<std::FILE*>(out_));  // the AtomicFile removes the temporary
}

void Hdf5File::group(const std::string& path) {
  Handle(H5Gcreate2(static_cast<hid_t>(file_), path.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, path);
}

void Hdf5File::string(const std::string& path, const std::string& value) {
  const Handle type = string_type();
  const Handle space(H5Screate(H5S_SCALAR), H5Sclose, path);
  const Handle set(H5Dcreate2(static_cast<hid_t>(file_), path.c_str(), type.get(), space.get(), H5P_DEFAULT,
                              H5P_DEFAULT, H5P_DEFAULT),
                   H5Dclose, path);
  const char* data = value.c_str();
  check(H5Dwrite(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &data), path);
}

void Hdf5File::number(const std::string& path, double value) {
  const Handle space(H5Screate(H5S_SCALAR), H5Sclose, path);
  const Handle set(H5Dcreate2(static_cast<hid_t>(file_), path.c_str(), H5T_NATIVE_DOUBLE, space.get(), H5P_DEFAULT,
                              H5P_DEFAULT, H5P_DEFAULT),
                   H5Dclose, path);
  check(H5Dwrite(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value), path);
}

void Hdf5File::strings(const std::string& path, const std::vector<std::string>& values) {
  std::vector<const char*> pointers;
  for (const auto& value : values) pointers.push_back(value.c_str());
  const Handle type = string_type();
  write_column(static_cast<hid_t>(file_), path, type.get(), pointers);
}

void Hdf5File::doubles(const std::string& path, const std::vector<double>& values) {
  write_column(static_cast<hid_t>(file_), path, H5T_NATIVE_DOUBLE, values);
}

void Hdf5File::integers(const std::string& path, const std::vector<std::int64_t>& values) {
  write_column(static_cast<hid_t>(file_), path, H5T_NATIVE_INT64, values);
}

void Hdf5File::commit() {
  const hid_t file = static_cast<hid_t>(file_);
  check(H5Fflush(file, H5F_SCOPE_GLOBAL), "flush");
  const ssize_t size = H5Fget_file_image(file, nullptr, 0);
  if (size < 0) throw std::runtime_error("HDF5: cannot read back the in-memory file");
  std::vector<char> image(static_cast<std::size_t>(size));
  if (H5Fget_file_image(file, image.data(), image.size()) != size)
    throw std::runtime_error("HDF5: cannot read back the in-memory file");
  H5Fclose(file);
  file_ = -1;
  auto* out = static_cast<std::FILE*>(out_);
  out_ = nullptr;
  errno = 0;
  const bool written = std::fwrite(image.data(), 1, image.size(), out) == image.size() && std::fflush(out) == 0;
  const int reason = errno;
  if (std::fclose(out) != 0 || !written)
    throw UserError(target_.final_path() + ": cannot write: writing " + target_.temp_path() +
                    " failed: " + std::strerror(reason ? reason : errno) + " (nothing was left under either name)");
  target_.commit();
}

void write_meta(Hdf5File& file, const std::string& kind, const std::string& config_file, const std::string& calibration,
                const std::vector<std::string>& hardware_paths, const std::vector<std::string>& hardware_contents) {
  file.group("/meta");
  file.string("/meta/kind", kind);
  file.string("/meta/dse_version", dse_version());
  file.string("/meta/git_commit", dse_git_commit());
  file.string("/meta/date_utc", utc_now());
  file.string("/meta/host", host_name());
  file.string("/meta/config_file", config_file);
  file.string("/meta/calibration", calibration);
  file.strings("/meta/hardware_files", hardware_paths);
  file.strings("/meta/hardware_file_contents", hardware_contents);
}

void write_metric_table(Hdf5File& file, const std::string& group, const MetricTable& metrics) {
  std::vector<std::string> names, units, descriptions;
  std::vector<double> values;
  for (const auto& entry : metrics.entries()) {
    names.push_back(entry.name);
    values.push_back(entry.value);
    units.push_back(entry.info->unit);
    descriptions.push_back(entry.info->description);
  }
  file.group(group);
  file.strings(group + "/name", names);
  file.doubles(group + "/value", values);
  file.strings(group + "/unit", units);
  file.strings(group + "/description", descriptions);
}

}  // namespace dse
