// Command-line overrides: `-p key.path=value` sets any key of a loaded config.
//
// The key path is dotted map keys with [N] sequence indices ("workload.models[0].batch"), and
// ["KEY"] for a map key with other characters, such as a search-space key that is itself a path:
// `search.space["device.l1_kib"]={choice: [32, 64]}`. The value
// is YAML ("16", "fp16", "{name: vgg16, batch: 4}"; empty means null), except `~`, which removes
// the key or sequence item (nothing where the path names nothing). Missing map keys are
// created (a misspelt one is then reported by the unknown-key check, like a misspelt key in the
// file); an index may address an existing item or append one past the end. Errors name the flag as
// "(-p #N):1:COL" with the column inside the flag's argument.
#pragma once

#include <string>
#include <vector>

#include "sim/config/config_node.h"

namespace dse {

// Applies one "key.path=value"; `flag_number` (1-based) identifies the flag in messages.
void apply_override(ConfigNode& root, const std::string& assignment, int flag_number);
void apply_overrides(ConfigNode& root, const std::vector<std::string>& assignments);

}  // namespace dse
