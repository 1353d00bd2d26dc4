// Holds each keyed family's declarations (KeySpec, models/base/registry.h) to the code that reads
// the keys and to the docs tables generated from them (scripts/update_key_tables.sh), for the
// DeclaredKeys tests of every family whose implementations read their own keys of a block.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "models/base/registry.h"
#include "sim/config/config_loader.h"

namespace dse::test {

// A default that is a value (not "required", "none" or words such as "the highest level").
inline bool literal_default(const KeySpec& key) {
  return key.default_text != "required" && key.default_text != "none" &&
         key.default_text.find(' ') == std::string::npos;
}

// A block {HEAD, KEY: VALUE...}: `head` ("name: poisson", or none), every required key at its
// example, the keys `include` picks at theirs, then `extra` ("KEY: VALUE").
inline ConfigNode key_block(const std::string& head, const std::vector<KeySpec>& keys,
                            const std::function<bool(const KeySpec&)>& include, const std::string& extra = "") {
  std::vector<std::string> entries;
  if (!head.empty()) entries.push_back(head);
  for (const KeySpec& key : keys)
    if (key.default_text == "required" || include(key)) entries.push_back(key.name + ": " + key.example);
  if (!extra.empty()) entries.push_back(extra);
  std::string yaml = "{";
  for (std::size_t i = 0; i < entries.size(); ++i) yaml += (i ? ", " : "") + entries[i];
  return load_config_text(yaml + "}", "block.yaml");
}

// What an implementation built from `block` does, as text to compare.
using KeyBehaviour = std::function<std::string(const std::string& name, const ConfigNode& block)>;

struct KeyCheckOptions {
  std::string head_key = "name";       // the block names its implementation under this key ("": none)
  std::set<std::string> caller_reads;  // keys the behaviour's maker reads itself ("name")
  bool keys_required = false;          // every implementation declares at least one key
  // A value the test sets instead of a key's example ("" keeps the example): a file that exists here.
  std::function<std::string(const KeySpec&)> example_override;
};

// Every entry of Family: a block with all its declared keys at their examples builds and its code
// asked for exactly those keys (and options.caller_reads), each declared once; each literal default
// given explicitly behaves as leaving the key out.
template <class Family>
void check_declared_keys(const KeyBehaviour& behaviour, const KeyCheckOptions& options = {}) {
  for (const auto& info : Registry<Family>::instance().infos()) {
    SCOPED_TRACE(std::string(Family::family_name) + " " + info.name);
    if (options.keys_required) {
      ASSERT_FALSE(info.keys.empty()) << "register it with DSE_REGISTER_KEYED and its declared_keys()";
    }
    std::vector<KeySpec> keys = info.keys;
    if (options.example_override)
      for (KeySpec& key : keys)
        if (const std::string value = options.example_override(key); !value.empty()) key.example = value;
    const std::string head = options.head_key.empty() ? "" : options.head_key + ": " + info.name;
    const ConfigNode all = key_block(head, keys, [](const KeySpec&) { return true; });
    ASSERT_NO_THROW(behaviour(info.name, all));
    const std::vector<std::string> asked = all.asked_keys();
    std::set<std::string> declared = options.caller_reads;
    for (const KeySpec& key : keys) declared.insert(key.name);
    EXPECT_EQ(declared.size(), options.caller_reads.size() + keys.size()) << "a key declared twice";
    EXPECT_EQ(std::set<std::string>(asked.begin(), asked.end()), declared);
    const auto none = [](const KeySpec&) { return false; };
    const std::string left_out = behaviour(info.name, key_block(head, keys, none));
    for (const KeySpec& key : keys) {
      if (!literal_default(key)) continue;
      const std::string given = behaviour(info.name, key_block(head, keys, none, key.name + ": " + key.default_text));
      EXPECT_EQ(given, left_out) << key.name << ": " << key.default_text;
    }
  }
}

// The table scripts/update_key_tables.sh writes for a family: one row per declared key.
inline std::string key_table(const std::string& family, const std::vector<RegistryEntryInfo>& infos) {
  std::string out = "| " + family + " | key | type | default | unit | meaning |\n|---|---|---|---|---|---|";
  for (const auto& info : infos)
    for (const KeySpec& key : info.keys)
      out += "\n| `" + info.name + "` | `" + key.name + "` | " + key.type + " | " +
             (key.default_text == "none" ? "optional" : key.default_text) + " | " + key.unit + " | " + key.help + " |";
  return out;
}

// The generated section `name` of the doc at `path`, between its lines <!-- name:begin --> and
// <!-- name:end --> (the newlines around it left out).
inline std::string doc_section(const std::string& path, const std::string& name) {
  std::ifstream in(path);
  if (!in) return "(cannot read " + path + ": run from the repository root)";
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string begin = "<!-- " + name + ":begin -->", end = "<!-- " + name + ":end -->";
  const auto start = doc.find(begin), stop = doc.find(end);
  if (start == std::string::npos || stop == std::string::npos || stop < start) return "(no section " + name + ")";
  std::string section = doc.substr(start + begin.size(), stop - start - begin.size());
  while (!section.empty() && section.front() == '\n') section.erase(section.begin());
  while (!section.empty() && section.back() == '\n') section.pop_back();
  return section;
}

// The doc's section FAMILY_keys is the family's key table as scripts/update_key_tables.sh writes it.
template <class Family>
void check_key_table(const std::string& doc_path) {
  const std::string family = Family::family_name;
  EXPECT_EQ(doc_section(doc_path, family + "_keys"), key_table(family, Registry<Family>::instance().infos()))
      << doc_path << " is stale: run scripts/update_key_tables.sh";
}

}  // namespace dse::test
