#include "sim/output/hdf5_result.h"

#include <hdf5.h>
#include <unistd.h>

#include <array>
#include <ctime>
#include <functional>
#include <stdexcept>
#include <vector>

#include "models/base/errors.h"
#include "sim/output/atomic_file.h"
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

Handle group(hid_t parent, const char* name) {
  return Handle(H5Gcreate2(parent, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, name);
}

Handle string_type() {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
  check(H5Tset_size(type.get(), H5T_VARIABLE), "string type");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "string type");
  return type;
}

void write_string(hid_t parent, const char* name, const std::string& value) {
  const Handle type = string_type();
  const Handle space(H5Screate(H5S_SCALAR), H5Sclose, name);
  const Handle set(H5Dcreate2(parent, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                   H5Dclose, name);
  const char* data = value.c_str();
  check(H5Dwrite(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &data), name);
}

template <class T>
void write_column(hid_t parent, const char* name, hid_t memory_type, const std::vector<T>& values) {
  const std::array<hsize_t, 1> size{values.size()};
  const Handle space(H5Screate_simple(1, size.data(), nullptr), H5Sclose, name);
  const Handle set(H5Dcreate2(parent, name, memory_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                   H5Dclose, name);
  if (!values.empty()) check(H5Dwrite(set.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), name);
}

void write_strings(hid_t parent, const char* name, const std::vector<std::string>& values) {
  std::vector<const char*> pointers;
  for (const auto& value : values) pointers.push_back(value.c_str());
  const Handle type = string_type();
  write_column(parent, name, type.get(), pointers);
}

void write_doubles(hid_t parent, const char* name, const std::vector<double>& values) {
  write_column(parent, name, H5T_NATIVE_DOUBLE, values);
}

void write_ints(hid_t parent, const char* name, const std::vector<std::int64_t>& values) {
  write_column(parent, name, H5T_NATIVE_INT64, values);
}

void write_double(hid_t parent, const char* name, double value) {
  const Handle space(H5Screate(H5S_SCALAR), H5Sclose, name);
  const Handle set(H5Dcreate2(parent, name, H5T_NATIVE_DOUBLE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                   H5Dclose, name);
  check(H5Dwrite(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value), name);
}

// A column of one field of each element.
template <class Row, class Field>
auto column(const std::vector<Row>& rows, Field field) {
  std::vector<std::invoke_result_t<Field, const Row&>> out;
  for (const auto& row : rows) out.push_back(field(row));
  return out;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

std::string host_name() {
  std::array<char, 256> name{};
  return gethostname(name.data(), name.size() - 1) == 0 ? std::string(name.data()) : "unknown";
}

void write_meta(hid_t file, const Experiment& experiment, const RunResult& result) {
  const Handle meta = group(file, "meta");
  write_string(meta.get(), "dse_version", dse_version());
  write_string(meta.get(), "git_commit", dse_git_commit());
  write_string(meta.get(), "date_utc", utc_now());
  write_string(meta.get(), "host", host_name());
  write_string(meta.get(), "config_file", experiment.config_file);
  write_string(meta.get(), "calibration", result.calibration);
  write_strings(meta.get(), "hardware_files", column(experiment.hardware_files, [](const HardwareFile& f) { return f.path; }));
  write_strings(meta.get(), "hardware_file_contents",
                column(experiment.hardware_files, [](const HardwareFile& f) { return f.content; }));
}

void write_summary(hid_t file, const RunResult& result) {
  const Handle summary = group(file, "summary");
  write_string(summary.get(), "experiment", result.experiment);
  write_string(summary.get(), "gpu", result.gpu);
  write_string(summary.get(), "timing_model", result.timing_model);
  write_double(summary.get(), "latency_ms", result.latency_ms());
  write_double(summary.get(), "throughput_per_s", result.throughput_per_s());
  if (result.energy_j) write_double(summary.get(), "energy_j", *result.energy_j);
  const Handle models = group(summary.get(), "models");
  const auto& rows = result.models;
  write_strings(models.get(), "name", column(rows, [](const ModelResult& m) { return m.name; }));
  write_ints(models.get(), "batch", column(rows, [](const ModelResult& m) { return std::int64_t{m.params.batch}; }));
  write_strings(models.get(), "dtype",
                column(rows, [](const ModelResult& m) { return std::string(dtype_name(m.params.dtype)); }));
  write_ints(models.get(), "params", column(rows, [](const ModelResult& m) { return m.total.params; }));
  write_ints(models.get(), "macs", column(rows, [](const ModelResult& m) { return m.total.macs; }));
  write_doubles(models.get(), "latency_ms", column(rows, [](const ModelResult& m) { return m.latency_ms(); }));
  write_doubles(models.get(), "throughput_per_s", column(rows, [](const ModelResult& m) { return m.throughput_per_s(); }));
}

void write_ops(hid_t file, const RunResult& result) {
  const Handle ops = group(file, "ops");
  const auto& rows = result.ops;
  write_ints(ops.get(), "model", column(rows, [](const OpRecord& r) { return static_cast<std::int64_t>(r.model_index); }));
  write_strings(ops.get(), "name", column(rows, [](const OpRecord& r) { return r.name; }));
  write_strings(ops.get(), "kernel", column(rows, [](const OpRecord& r) { return r.kernel; }));
  write_doubles(ops.get(), "kernel_dram_bytes", column(rows, [](const OpRecord& r) { return r.dram_bytes; }));
  write_strings(ops.get(), "kind", column(rows, [](const OpRecord& r) { return std::string(op_kind_name(r.kind)); }));
  write_strings(ops.get(), "output_shape", column(rows, [](const OpRecord& r) { return shape_string(r.output_shape); }));
  write_ints(ops.get(), "stream", column(rows, [](const OpRecord& r) { return std::int64_t{r.stream}; }));
  write_doubles(ops.get(), "start_us", column(rows, [](const OpRecord& r) { return ps_to_us(r.start_ps); }));
  write_doubles(ops.get(), "duration_us", column(rows, [](const OpRecord& r) { return ps_to_us(r.end_ps - r.start_ps); }));
  write_ints(ops.get(), "macs", column(rows, [](const OpRecord& r) { return r.cost.macs; }));
  write_ints(ops.get(), "flops", column(rows, [](const OpRecord& r) { return r.cost.flops; }));
  write_ints(ops.get(), "bytes_read", column(rows, [](const OpRecord& r) { return r.cost.bytes_read; }));
  write_ints(ops.get(), "bytes_written", column(rows, [](const OpRecord& r) { return r.cost.bytes_written; }));
  write_strings(ops.get(), "bound", column(rows, [](const OpRecord& r) { return r.bound; }));
}

}  // namespace

void write_hdf5_result(const std::string& path, const Experiment& experiment, const RunResult& result) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors become exceptions, not stderr noise
  AtomicFile target(path);
  {
    const hid_t id = H5Fcreate(target.temp_path().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (id < 0) throw UserError(path + ": cannot write: HDF5 cannot create " + target.temp_path());
    const Handle file(id, H5Fclose, target.temp_path());
    write_string(file.get(), "config", experiment.resolved_yaml);
    write_meta(file.get(), experiment, result);
    write_summary(file.get(), result);
    write_ops(file.get(), result);
    check(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), "flush");
  }
  target.commit();
}

}  // namespace dse
