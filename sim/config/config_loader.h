// Reading YAML into ConfigNode trees. This file's .cpp is the only one that includes yaml-cpp.
//
// A file may replace any value by another file's content with `key: !include other.yaml` (relative
// to the including file); cycles and missing files are errors at the `!include`. Files are read from
// disk, or from the binary when the path starts with "embedded:". Text must be UTF-8; binary files,
// YAML syntax errors, duplicate keys and anchors that expand beyond 1,000,000 nodes are ConfigErrors
// with file:line:col.
#pragma once

#include <string>

#include "sim/config/config_node.h"

namespace dse {

// Loads `path` (as the user wrote it: messages name the file this way).
ConfigNode load_config_file(const std::string& path);

// Parses `text` as if it were the file `display_name` (includes resolve relative to it).
ConfigNode load_config_text(const std::string& text, const std::string& display_name);

// Parses a command-line value as YAML ("16", "fp16", "{name: vgg16, batch: 4}"); marks point at
// `origin` shifted by the position within `text`.
ConfigNode parse_yaml_value(const std::string& text, const SourceMark& origin);

// Reads a file's bytes from disk or the embedded set; UserError "FILE: cannot read: ..." if absent.
std::string read_config_bytes(const std::string& path);
bool config_file_exists(const std::string& path);
// `target` as written in the file `from` (relative paths are relative to `from`'s folder; this also
// works inside the embedded set).
std::string resolve_config_path(const std::string& from, const std::string& target);

// The tree as YAML text (block style, keys in document order); quoted scalars stay quoted.
std::string to_yaml(const ConfigNode& node);

}  // namespace dse
