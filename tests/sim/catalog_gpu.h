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

}  // namespace dse::test
