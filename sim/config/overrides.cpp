#include "sim/config/overrides.h"

#include <cctype>

#include "models/base/cut_input.h"
#include "sim/config/config_loader.h"

namespace dse {
namespace {

// One step of a key path: a map key, or a sequence index when `is_index`.
struct Step {
  std::string key;
  std::size_t index = 0;
  bool is_index = false;
  int column = 1;  // where this step starts within the argument
};

SourceMark flag_mark(int flag_number, int column) { return {"(-p #" + std::to_string(flag_number) + ")", 1, column}; }

std::vector<Step> parse_key_path(const std::string& path, int flag_number) {
  std::vector<Step> steps;
  std::size_t i = 0;
  const auto bad = [&](const std::string& what) {
    throw ConfigError(flag_mark(flag_number, static_cast<int>(i) + 1), cut_input(path),
                      "expected KEY.PATH=VALUE with keys of letters, digits, '_' or '-', [N] indices and [\"KEY\"] "
                      "for keys with other characters, found " +
                          what);
  };
  if (path.empty()) bad("an empty key path");
  while (i < path.size()) {
    const std::size_t start = i;
    while (i < path.size() && (std::isalnum(static_cast<unsigned char>(path[i])) || path[i] == '_' || path[i] == '-'))
      ++i;
    if (i == start) bad(std::string("'") + path[i] + "'");
    steps.push_back({path.substr(start, i - start), 0, false, static_cast<int>(start) + 1});
    while (i < path.size() && path[i] == '[') {
      if (i + 1 < path.size() && path[i + 1] == '"') {  // ["a key with dots or [brackets]"]
        const std::size_t key_start = i + 2;
        const std::size_t close = path.find("\"]", key_start);
        if (close == std::string::npos || close == key_start)
          bad("a malformed [\"KEY\"] (a non-empty key in double quotes)");
        steps.push_back({path.substr(key_start, close - key_start), 0, false, static_cast<int>(key_start) + 1});
        i = close + 2;
        continue;
      }
      const std::size_t digits = ++i;
      while (i < path.size() && std::isdigit(static_cast<unsigned char>(path[i]))) ++i;
      if (i == digits || i >= path.size() || path[i] != ']' || i - digits > 9) bad("a malformed [N] index");
      steps.push_back({"", static_cast<std::size_t>(std::stoul(path.substr(digits, i - digits))), true,
                       static_cast<int>(digits) + 1});
      ++i;
    }
    if (i < path.size()) {
      if (path[i] != '.' || i + 1 == path.size()) bad(std::string("'") + path[i] + "'");
      ++i;
    }
  }
  return steps;
}

// `-p KEY=~`: removes the key or sequence item the path names, so that the reader's default (or
// another key: `requests` for `duration_s`) applies. A path that names nothing removes nothing.
void remove_at(ConfigNode& root, const std::vector<Step>& steps, int flag_number) {
  ConfigNode* node = &root;
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const bool last = s + 1 == steps.size();
    const SourceMark here = flag_mark(flag_number, steps[s].column);
    if (!steps[s].is_index) {
      if (!node->is_map())
        throw ConfigError(here, node->path(),
                          "expected a mapping to remove '" + steps[s].key + "' from, found " + node->describe());
      if (last) {
        node->erase(steps[s].key);
        return;
      }
      node = node->mutable_child(steps[s].key);
    } else {
      if (!node->is_sequence())
        throw ConfigError(here, node->path(),
                          "expected a sequence to remove item [" + std::to_string(steps[s].index) + "] from, found " +
                              node->describe());
      if (last) {
        node->erase_item(steps[s].index);
        return;
      }
      node = node->mutable_item(steps[s].index);
    }
    if (!node) return;
  }
}

bool is_removal(const std::string& value) {
  const auto first = value.find_first_not_of(" \t");
  return first != std::string::npos && value[first] == '~' &&
         value.find_first_not_of(" \t", first + 1) == std::string::npos;
}

}  // namespace

void apply_override(ConfigNode& root, const std::string& assignment, int flag_number) {
  // The '=' that ends the key path: the first one outside a ["quoted key"].
  std::size_t equals = std::string::npos;
  for (std::size_t i = 0, quoted = 0; i < assignment.size() && equals == std::string::npos; ++i) {
    if (!quoted && assignment.compare(i, 2, "[\"") == 0) {
      quoted = 1;
      ++i;
    } else if (quoted && assignment.compare(i, 2, "\"]") == 0) {
      quoted = 0;
      ++i;
    } else if (!quoted && assignment[i] == '=') {
      equals = i;
    }
  }
  if (equals == std::string::npos) equals = assignment.find('=');  // an unclosed ["...: the key path says so
  if (equals == std::string::npos) {
    throw ConfigError(flag_mark(flag_number, 1), cut_input(assignment),
                      "expected KEY.PATH=VALUE, found no '=' in \"" + cut_input(assignment) + "\"");
  }
  const std::string key_path = assignment.substr(0, equals);
  const std::vector<Step> steps = parse_key_path(key_path, flag_number);
  if (is_removal(assignment.substr(equals + 1))) {
    if (!root.is_map())
      throw ConfigError(root.mark(), root.path(),
                        "expected a mapping to remove '" + key_path + "' from, found " + root.describe());
    remove_at(root, steps, flag_number);
    return;
  }
  ConfigNode value =
      parse_yaml_value(assignment.substr(equals + 1), flag_mark(flag_number, static_cast<int>(equals) + 2));

  if (!root.is_map()) {
    throw ConfigError(root.mark(), root.path(),
                      "expected a mapping to set '" + key_path + "' in, found " + root.describe());
  }
  ConfigNode* node = &root;
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const bool last = s + 1 == steps.size();
    const SourceMark here = flag_mark(flag_number, steps[s].column);
    if (!steps[s].is_index) {
      const std::string* key = &steps[s].key;
      if (!node->is_map()) {
        throw ConfigError(here, node->path(), "expected a mapping to set '" + *key + "' in, found " + node->describe());
      }
      if (last) {
        node->set(*key, std::move(value), here);
        return;
      }
      ConfigNode* child = node->mutable_child(*key);
      if (!child) {
        const bool next_is_index = steps[s + 1].is_index;
        child = &node->set(*key, next_is_index ? ConfigNode::sequence(here) : ConfigNode::map(here), here);
      }
      node = child;
    } else {
      const std::size_t index = steps[s].index;
      if (!node->is_sequence()) {
        throw ConfigError(
            here, node->path(),
            "expected a sequence to index with [" + std::to_string(index) + "], found " + node->describe());
      }
      if (index > node->item_count()) {
        throw ConfigError(
            here, item_path(node->path(), index),
            "expected an index in [0, " + std::to_string(node->item_count()) + "], found " + std::to_string(index));
      }
      if (index == node->item_count()) {
        node->append(last ? std::move(value) : ConfigNode::map(here));
        if (last) return;
      } else if (last) {
        *node->mutable_item(index) = std::move(value);
        node->mutable_item(index)->set_path(item_path(node->path(), index));
        return;
      }
      node = node->mutable_item(index);
    }
  }
}

void apply_overrides(ConfigNode& root, const std::vector<std::string>& assignments) {
  for (std::size_t i = 0; i < assignments.size(); ++i) apply_override(root, assignments[i], static_cast<int>(i) + 1);
}

}  // namespace dse
