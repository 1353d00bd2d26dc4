// A GPU spec from the repository's catalog (configs/hardware/gpu/NAME.yaml), for tests.
#pragma once

#include <string>

#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/gpu/gpu_spec.h"

namespace dse::test {

inline GpuSpec catalog_gpu(const std::string& name) {
  return read_gpu_spec(load_config_file(*HardwareCatalog::for_experiment("").find("gpu", name)));
}

// The error reading `spec_text` (a spec file's text, named `file_name`) gives once `entry` is
// replaced by `replacement`: "(no error)" if it reads, "(entry not found)" if `entry` is not there.
inline std::string spec_error_with(const std::string& spec_text, const std::string& file_name, const std::string& entry,
                                   const std::string& replacement) {
  const auto at = spec_text.find(entry);
  if (at == std::string::npos) return "(entry not found)";
  std::string mangled = spec_text;
  mangled.replace(at, entry.size(), replacement);
  try {
    read_gpu_spec(load_config_text(mangled, file_name));
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace dse::test
