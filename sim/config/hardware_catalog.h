// Where hardware spec files are found: `device: {gpu: h200}` names configs/hardware/gpu/h200.yaml.
//
// Roots are searched in order: $DSE_CONFIG_DIR (a configs/ folder), the configs/ folder that holds
// the experiment file (if it is inside one), then the copy embedded in the binary. A value ending in
// ".yaml" is instead a path relative to the experiment file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dse {

class ConfigNode;

class HardwareCatalog {
 public:
  // The roots for an experiment read from `experiment_file` ("" when there is none).
  static HardwareCatalog for_experiment(const std::string& experiment_file);

  // The roots for listing what is available: $DSE_CONFIG_DIR, ./configs if present, the binary.
  static HardwareCatalog for_listing();

  const std::vector<std::string>& roots() const { return roots_; }
  // The spec file for `name` of `kind` ("gpu", "accel"), or nullopt.
  std::optional<std::string> find(std::string_view kind, std::string_view name) const;
  // Every name of `kind` available in any root, sorted, without duplicates.
  std::vector<std::string> names(std::string_view kind) const;

 private:
  std::vector<std::string> roots_;
};

// The spec file `node` names: a catalog name of `kind` ("gpu", "accel") or a .yaml path relative to
// `config_file`; otherwise a ConfigError at `node` listing the names (`noun`: "GPU spec").
std::string find_hardware_spec_file(const ConfigNode& node, std::string_view kind, const std::string& noun,
                                    const std::string& config_file);

}  // namespace dse
