#include "sim/accel/scalesim_config.h"

#include "models/base/input_file.h"

#include <ini.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "models/base/did_you_mean.h"
#include "models/base/errors.h"

namespace dse {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

struct Entries {
  std::map<std::string, std::string> values;  // "section.key" (lower case) -> value
};

int collect(void* user, const char* section, const char* name, const char* value) {
  static_cast<Entries*>(user)->values[lower(section) + "." + lower(name)] = value;
  return 1;
}

// The line of the file where `key` is set, for messages (inih reports lines only for syntax).
int line_of(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto pos = lower(line).find(lower(key));
    if (pos != std::string::npos && line.find_first_not_of(" \t") == pos) return number;
  }
  return 1;
}

}  // namespace

ScaleSimConfig read_scalesim_config(const std::string& path) {
  check_input_file(path, kMaxTextInputBytes, "a SCALE-Sim config");
  Entries entries;
  const int error = ini_parse(path.c_str(), collect, &entries);
  if (error > 0)
    throw UserError(path + ":" + std::to_string(error) +
                    ": expected 'key = value', 'key: value' or '[section]', found a line that is neither");
  if (error < 0) throw UserError(path + ": cannot read");

  const auto fail = [&path](const std::string& section, const std::string& key, const std::string& message) -> void {
    throw UserError(path + ":" + std::to_string(line_of(path, key)) + ": [" + section + "] " + key + ": " + message);
  };
  const auto text = [&](const std::string& section, const std::string& key) -> std::string {
    const auto it = entries.values.find(lower(section) + "." + lower(key));
    if (it == entries.values.end()) {
      throw UserError(path + ": [" + section + "] " + key + ": expected this key, found no such line");
    }
    return it->second;
  };
  // `first_item`: the value is a comma-separated list of which SCALE-Sim uses the first (Bandwidth).
  const auto number = [&](const std::string& section, const std::string& key, double low, double high,
                          bool first_item = false) {
    std::string value = text(section, key);
    if (first_item) {
      value = value.substr(0, value.find(','));
      value.erase(value.find_last_not_of(" \t") + 1);
    }
    double result = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), result);
    if (ec != std::errc() || end != value.data() + value.size() || !(result >= low && result <= high)) {
      std::ostringstream range;
      range << "expected a number in [" << low << ", " << high << "], found '" << value << "'";
      fail(section, key, range.str());
    }
    return result;
  };

  ScaleSimConfig config;
  const auto general = entries.values.find("general.run_name");
  config.run_name = general == entries.values.end() ? "scalesim" : general->second;
  config.array.rows = static_cast<std::int64_t>(number("architecture_presets", "ArrayHeight", 1, 1 << 16));
  config.array.cols = static_cast<std::int64_t>(number("architecture_presets", "ArrayWidth", 1, 1 << 16));
  const std::string dataflow = lower(text("architecture_presets", "Dataflow"));
  if (const auto parsed = kDataflowNames.parse(dataflow))
    config.array.dataflow = *parsed;
  else
    fail("architecture_presets", "Dataflow",
         "expected os, ws or is, found '" + dataflow + "'" + did_you_mean_suffix(dataflow, kDataflowNames.names()));
  config.ifmap_sram_kib = number("architecture_presets", "IfmapSramSzkB", 0, 1e9);
  config.filter_sram_kib = number("architecture_presets", "FilterSramSzkB", 0, 1e9);
  config.ofmap_sram_kib = number("architecture_presets", "OfmapSramSzkB", 0, 1e9);
  const auto bandwidth = entries.values.find("architecture_presets.bandwidth");
  if (bandwidth != entries.values.end())
    config.bandwidth_words_per_cycle = number("architecture_presets", "Bandwidth", 1e-6, 1e9, true);
  const auto interface = entries.values.find("run_presets.interfacebandwidth");
  const std::string mode = interface == entries.values.end() ? "calc" : lower(interface->second);
  if (mode != "calc" && mode != "user")
    fail("run_presets", "InterfaceBandwidth", "expected CALC or USER, found '" + interface->second + "'");
  config.user_bandwidth = mode == "user";
  if (config.user_bandwidth && config.bandwidth_words_per_cycle <= 0)
    fail("architecture_presets", "Bandwidth", "expected a bandwidth (words per cycle) with InterfaceBandwidth: USER");
  if (config.user_bandwidth) {  // SCALE-Sim reads these with int() and simulates whole words
    const auto whole = [&](const std::string& key, double value) {
      if (value < 1 || value != std::floor(value))
        fail("architecture_presets", key,
             "expected a whole number, at least 1, with InterfaceBandwidth: USER, found '" +
                 text("architecture_presets", key) + "'");
    };
    whole("IfmapSramSzkB", config.ifmap_sram_kib);
    whole("FilterSramSzkB", config.filter_sram_kib);
    whole("OfmapSramSzkB", config.ofmap_sram_kib);
    whole("Bandwidth", config.bandwidth_words_per_cycle);
  }
  return config;
}

}  // namespace dse
