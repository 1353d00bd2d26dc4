// `dse list [FAMILY]`: the pluggable families and what is registered in each.
#include <fmt/format.h>

#include <algorithm>

#include "cli/command.h"
#include "models/base/did_you_mean.h"
#include "models/base/errors.h"
#include "models/base/registry.h"

namespace dse {
namespace {

struct ListOptions {
  std::string family;
  OutputMode mode;
};

int list(const ListOptions& options) {
  std::vector<FamilyCatalog::Family> families;
  if (options.family.empty()) {
    families = FamilyCatalog::instance().families();
  } else if (const auto* family = FamilyCatalog::instance().find(options.family)) {
    families.push_back(*family);
  } else {
    std::vector<std::string> names;
    for (const auto& f : FamilyCatalog::instance().families()) names.push_back(f.name);
    throw UserError("dse list: FAMILY: expected one of " + join_names(names) + ", found '" + options.family + "'" +
                    did_you_mean_suffix(options.family, names));
  }
  nlohmann::json json = nlohmann::json::object();
  for (const auto& family : families) {
    const auto entries = family.entries();
    nlohmann::json rows = nlohmann::json::array();
    if (!options.mode.quiet) fmt::print(options.mode.human(), "{} -- {}\n", family.name, family.description);
    std::size_t width = 16;
    for (const auto& entry : entries) width = std::max(width, entry.name.size());
    for (const auto& entry : entries) {
      nlohmann::json row = {{"name", entry.name}, {"description", entry.description}};
      if (!entry.unit.empty()) row["unit"] = entry.unit;
      if (!entry.keys.empty()) {
        row["keys"] = nlohmann::json::array();
        for (const KeySpec& key : entry.keys)
          row["keys"].push_back({{"name", key.name},
                                 {"type", key.type},
                                 {"default", key.default_text},
                                 {"unit", key.unit},
                                 {"help", key.help}});
      }
      rows.push_back(row);
      if (options.mode.quiet) continue;
      if (entry.unit.empty())
        fmt::print(options.mode.human(), "  {:<{}} {}\n", entry.name, width, entry.description);
      else
        fmt::print(options.mode.human(), "  {:<{}} {:<9} {}\n", entry.name, width, "[" + entry.unit + "]",
                   entry.description);
      std::size_t key_width = 0;
      for (const KeySpec& key : entry.keys) key_width = std::max(key_width, key.name.size());
      for (const KeySpec& key : entry.keys)
        fmt::print(options.mode.human(), "      {:<{}}  {}, {}{}: {}\n", key.name, key_width, key.type,
                   key.default_text == "required" ? key.default_text
                   : key.default_text == "none"   ? std::string("optional")
                                                  : "default " + key.default_text,
                   key.unit.empty() ? "" : ", " + key.unit, key.help);
    }
    json[family.name] = {{"description", family.description}, {"entries", rows}};
  }
  if (options.mode.json) options.mode.print_json({{"families", json}});
  return 0;
}

}  // namespace

Subcommand add_list_command(CLI::App& app) {
  auto options = std::make_shared<ListOptions>();
  CLI::App* command = app.add_subcommand(
      "list", "List registered implementations (models, devices, GPU specs, timing models, metrics)");
  command->add_option("family", options->family, "Only this family (e.g. model, device, gpu, gpu_timing, metrics)");
  add_output_flags(*command, options->mode, true);
  return {command, [options] { return list(*options); }};
}

}  // namespace dse
