// Counting a YAML document's nodes as yaml-cpp parses it, without building them, so that a file
// with more nodes than the loader's budget is refused before YAML::Load builds them: yaml-cpp takes
// about 480 bytes a node, so a 30 MB flow sequence of 15 million numbers would need 7 GB.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <yaml-cpp/mark.h>

namespace dse {

// Where the document first exceeds its budget: the node's mark and key path.
struct YamlOverBudget {
  YAML::Mark mark;
  std::string path;
};

// Parses the first document of `text` counting what the loader converts (every node but a map's
// keys; an alias counts one, as its expansion is counted when converted); `root_path` is the
// document's key path ("(root)", or where an included file goes). nullopt if at most `budget`.
// Throws yaml-cpp's exceptions for bad YAML, as YAML::Load would.
std::optional<YamlOverBudget> find_yaml_node_over_budget(const std::string& text, std::size_t budget,
                                                         const std::string& root_path);

}  // namespace dse
