#include "sim/config/hardware_catalog.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "models/base/did_you_mean.h"
#include "models/base/registry.h"
#include "sim/config/config_loader.h"
#include "sim/config/config_node.h"
#include "sim/config/embedded_files.h"

namespace dse {
namespace fs = std::filesystem;

namespace {

std::string embedded_root() { return std::string(kEmbeddedPrefix) + "configs"; }

// The nearest ancestor folder named "configs" that has a hardware/ folder.
std::optional<std::string> enclosing_configs_root(const std::string& file) {
  if (file.empty() || file.starts_with(kEmbeddedPrefix)) return std::nullopt;
  std::error_code error;
  fs::path dir = fs::absolute(file, error).parent_path();
  for (int depth = 0; depth < 16 && !dir.empty(); ++depth) {
    if (dir.filename() == "configs" && fs::is_directory(dir / "hardware", error)) return dir.string();
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  return std::nullopt;
}

std::string spec_path(const std::string& root, std::string_view kind, std::string_view name) {
  return root + "/hardware/" + std::string(kind) + "/" + std::string(name) + ".yaml";
}

}  // namespace

HardwareCatalog HardwareCatalog::for_experiment(const std::string& experiment_file) {
  HardwareCatalog catalog;
  if (const char* env = std::getenv("DSE_CONFIG_DIR"); env && *env) catalog.roots_.emplace_back(env);
  if (const auto root = enclosing_configs_root(experiment_file)) catalog.roots_.push_back(*root);
  catalog.roots_.push_back(embedded_root());
  return catalog;
}

HardwareCatalog HardwareCatalog::for_listing() {
  HardwareCatalog catalog;
  if (const char* env = std::getenv("DSE_CONFIG_DIR"); env && *env) catalog.roots_.emplace_back(env);
  std::error_code error;
  if (fs::is_directory("configs/hardware", error)) catalog.roots_.emplace_back("configs");
  catalog.roots_.push_back(embedded_root());
  return catalog;
}

std::optional<std::string> HardwareCatalog::find(std::string_view kind, std::string_view name) const {
  if (name.empty() || name.find('/') != std::string_view::npos) return std::nullopt;
  for (const auto& root : roots_) {
    const std::string path = spec_path(root, kind, name);
    if (config_file_exists(path)) return path;
  }
  return std::nullopt;
}

std::vector<std::string> HardwareCatalog::names(std::string_view kind) const {
  std::vector<std::string> out;
  const std::string folder = "hardware/" + std::string(kind) + "/";
  for (const auto& root : roots_) {
    if (root.starts_with(kEmbeddedPrefix)) {
      const std::string prefix = "configs/" + folder;
      for (const auto& file : embedded_files()) {
        if (file.path.starts_with(prefix) && file.path.ends_with(".yaml"))
          out.emplace_back(file.path.substr(prefix.size(), file.path.size() - prefix.size() - 5));
      }
      continue;
    }
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(fs::path(root) / folder, error)) {
      if (entry.path().extension() == ".yaml") out.push_back(entry.path().stem().string());
    }
  }
  std::sort(out.begin(), out.end(), NaturalLess{});
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

// The driver readings a GPU spec holds (docs/config.md: the clock table a locked clock is checked
// against, the power-limit range, the idle draw), for `dse list gpu`.
std::string gpu_readings(const ConfigNode& spec) {
  std::vector<std::string> held;
  const ConfigNode* clocks = spec.peek("clocks_mhz");
  if (clocks && clocks->is_map() && clocks->peek("supported")) held.emplace_back("clock table");
  if (spec.peek("power_limit_w")) held.emplace_back("power limits");
  if (spec.peek("idle_w")) held.emplace_back("idle draw");
  return held.empty() ? " (no nvidia-smi readings)" : " (nvidia-smi: " + join_names(held) + ")";
}

// `dse list gpu` / `dse list accel`: the spec files, described by their display_name.
std::vector<RegistryEntryInfo> spec_entries(std::string_view kind) {
  const HardwareCatalog catalog = HardwareCatalog::for_listing();
  std::vector<RegistryEntryInfo> out;
  for (const auto& name : catalog.names(kind)) {
    const std::string path = *catalog.find(kind, name);
    std::string description;
    try {
      const ConfigNode spec = load_config_file(path);
      const ConfigNode* display = spec.is_map() ? spec.peek("display_name") : nullptr;
      description = display && display->is_scalar() ? display->text() : "(no display_name)";
      if (kind == "gpu" && spec.is_map()) description += gpu_readings(spec);
    } catch (const UserError& error) {
      description = std::string("(unreadable: ") + error.what() + ")";
    }
    out.push_back({name, description + " [" + path + "]", {}, {}});
  }
  return out;
}

[[maybe_unused]] const bool spec_families_registered =
    (FamilyCatalog::instance().add_family({"gpu",
                                           "GPU spec files in configs/hardware/gpu/ (datasheet values with sources)",
                                           [] { return spec_entries("gpu"); }}),
     FamilyCatalog::instance().add_family(
         {"accel", "Accelerator template specs in configs/hardware/accel/ (FAST-style, with sources)",
          [] { return spec_entries("accel"); }}),
     true);

}  // namespace

std::string find_hardware_spec_file(const ConfigNode& node, std::string_view kind, const std::string& noun,
                                    const std::string& config_file) {
  const std::string article = std::string_view("aeiou").find(noun.front()) == std::string_view::npos ? "a " : "an ";
  const std::string value = node.as<std::string>();
  if (value.ends_with(".yaml")) {
    const std::string path = resolve_config_path(config_file, value);
    if (!config_file_exists(path)) node.fail("expected an existing " + noun + " file, found no file '" + path + "'");
    return path;
  }
  const HardwareCatalog catalog = HardwareCatalog::for_experiment(config_file);
  if (const auto path = catalog.find(kind, value)) return *path;
  const auto names = catalog.names(kind);
  node.fail("expected " + article + noun + " name (" + join_names(names) + ") or a .yaml file, found " +
            node.describe() + did_you_mean_suffix(value, names));
}

}  // namespace dse
