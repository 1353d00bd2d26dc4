#include "sim/config/config_loader.h"

#include "models/base/input_file.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "sim/config/embedded_files.h"
#include "sim/config/yaml_node_count.h"

namespace dse {
namespace fs = std::filesystem;

namespace {

// The nodes a document may expand to: YAML without aliases has at most about one node per byte, so
// 16 per byte (and 10,000 for any file) leaves aliases room to be useful while an alias bomb (nested
// aliases, each repeating the one before) is refused in milliseconds rather than after a million
// nodes; 1,000,000 at most whatever the size.
constexpr std::size_t kMaxNodes = 1'000'000;
constexpr std::size_t kNodesPerByte = 16;
constexpr std::size_t kNodesPerFile = 10'000;
constexpr std::size_t kMaxIncludeDepth = 32;
// Files larger than this have their nodes counted before yaml-cpp builds them (at ~480 bytes a node
// a file of up to 64 KiB builds at most ~30 MB).
constexpr std::size_t kCountedFileBytes = 64 << 10;
// Deeper than yaml-cpp's own parser allows (499), so only an alias that contains itself (a cyclic
// node graph, `a: &a [*a]`) reaches it: without it converting one recursed until the stack overflowed.
constexpr int kMaxConvertDepth = 512;

bool is_embedded(const std::string& path) { return path.starts_with(kEmbeddedPrefix); }

const EmbeddedFile* find_embedded(const std::string& path) {
  const std::string_view relative = std::string_view(path).substr(kEmbeddedPrefix.size());
  for (const auto& file : embedded_files())
    if (file.path == relative) return &file;
  return nullptr;
}

// The path of `target` written relative to the file `from` (which is how a user reads it).
std::string resolve_relative(const std::string& from, const std::string& target) {
  if (fs::path(target).is_absolute()) return target;
  if (is_embedded(from)) {
    const fs::path base = fs::path(from.substr(kEmbeddedPrefix.size())).parent_path();
    return std::string(kEmbeddedPrefix) + (base / target).lexically_normal().generic_string();
  }
  return (fs::path(from).parent_path() / target).lexically_normal().generic_string();
}

// An identity for cycle detection.
std::string canonical_name(const std::string& path) {
  if (is_embedded(path)) return path;
  std::error_code error;
  const auto canonical = fs::weakly_canonical(path, error);
  return error ? path : canonical.string();
}

// Rejects text that is not UTF-8 (binary files) with the position of the first bad byte.
void check_utf8(const std::string& text, const std::string& file) {
  int line = 1, column = 1;
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length = byte < 0x80           ? 1
                         : (byte >> 5) == 0x6  ? 2
                         : (byte >> 4) == 0xE  ? 3
                         : (byte >> 3) == 0x1E ? 4
                                               : 0;
    bool valid = length != 0 && byte != 0 && i + length <= text.size();
    for (std::size_t k = 1; valid && k < length; ++k) valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
    if (!valid) {
      std::ostringstream message;
      message << "expected UTF-8 YAML text, found byte 0x" << std::hex << static_cast<int>(byte)
              << " (is this a binary file?)";
      throw ConfigError({file, line, column}, "(file)", message.str());
    }
    if (byte == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    i += length;
  }
}

// YAML forbids tabs in indentation; say so when the failing line starts with one.
std::string tab_hint(const std::string& text, int zero_based_line) {
  std::size_t start = 0;
  for (int line = 0; line < zero_based_line && start != std::string::npos; ++line) {
    start = text.find('\n', start);
    if (start != std::string::npos) ++start;
  }
  if (start == std::string::npos) return {};
  const std::size_t indent_end = text.find_first_not_of(" \t", start);
  const std::string indent =
      text.substr(start, indent_end == std::string::npos ? std::string::npos : indent_end - start);
  return indent.find('\t') != std::string::npos ? " (the line is indented with a tab; YAML allows only spaces)" : "";
}

// yaml-cpp's Load reads the first document and ignores the rest: a second one (after a `---` line,
// or content after `...`) is refused. A line scan, because LoadAll is pathologically slow on some
// malformed input (the config-mutation test found ones taking seconds each).
void check_single_document(const std::string& text, const std::string& file, int line_offset) {
  bool content = false, ended = false;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#' || (first == 0 && line[0] == '%')) continue;
    const bool marker = line.starts_with("---") && (line.size() == 3 || line[3] == ' ' || line[3] == '\t');
    const bool end = line.starts_with("...") && line.find_first_not_of(" \t", 3) == std::string::npos;
    if ((marker && content) || (ended && !end))
      throw ConfigError({file, number + line_offset, 1}, "(yaml)",
                        "expected one YAML document, found a second one here: put each experiment in its own file");
    if (end)
      ended = content;
    else if (!marker || line.find_first_not_of(" \t", 3) != std::string::npos)
      content = true;
  }
}

class Converter {
 public:
  // `include_stack`: canonical identities of the files being read (for cycle detection);
  // `display_stack`: the same files as the user sees them (for messages).
  Converter(std::vector<std::string> include_stack, std::vector<std::string> display_stack)
      : include_stack_(std::move(include_stack)), display_stack_(std::move(display_stack)) {}

  ConfigNode parse_document(const std::string& text, const std::string& file, const std::string& path = "(root)",
                            int line_offset = 0, int column_offset = 0) {
    check_utf8(text, file);
    check_single_document(text, file, line_offset);
    // Included files add their own share to the budget of the file that includes them.
    node_budget_ = std::min(kMaxNodes, node_budget_ + kNodesPerFile + kNodesPerByte * text.size());
    YAML::Node root;
    try {
      // A large file is counted before yaml-cpp builds its nodes (a small one cannot exceed the budget).
      if (text.size() > kCountedFileBytes) {
        const std::size_t left = node_budget_ > node_count_ ? node_budget_ - node_count_ : 0;
        if (const auto over = find_yaml_node_over_budget(text, left, path))
          throw ConfigError({file, over->mark.line + 1 + line_offset,
                             over->mark.column + 1 + (over->mark.line == 0 ? column_offset : 0)},
                            over->path,
                            "expected at most " + std::to_string(node_budget_) +
                                " nodes (10000 + 16 per byte of each file read, 1000000 at most), found more");
      }
      root = YAML::Load(text);
    } catch (const YAML::DeepRecursion& error) {
      const SourceMark mark{file, error.mark.line + 1 + line_offset, error.mark.column + 1 + column_offset};
      throw ConfigError(mark, "(yaml)",
                        "expected nesting at most " + std::to_string(error.depth() - 1) + " levels deep, found deeper");
    } catch (const YAML::Exception& error) {
      const SourceMark mark{file, error.mark.line + 1 + line_offset, error.mark.column + 1 + column_offset};
      throw ConfigError(mark, "(yaml)",
                        "expected valid YAML, found a syntax error: " + error.msg + tab_hint(text, error.mark.line));
    }
    file_ = file;
    line_offset_ = line_offset;
    column_offset_ = column_offset;
    ConfigNode node = convert(root, {file, 1 + line_offset, 1 + column_offset}, path);
    node.set_path(path);
    return node;
  }

 private:
  SourceMark mark_of(const YAML::Node& node, const SourceMark& fallback) const {
    const YAML::Mark mark = node.Mark();
    if (mark.is_null()) return fallback;
    return {file_, mark.line + 1 + line_offset_, mark.column + 1 + (mark.line == 0 ? column_offset_ : 0)};
  }

  ConfigNode convert(const YAML::Node& node, const SourceMark& fallback, const std::string& path, int depth = 0) {
    if (++node_count_ > node_budget_)
      throw ConfigError(mark_of(node, fallback), path,
                        "expected at most " + std::to_string(node_budget_) +
                            " nodes (10000 + 16 per byte of each file read, 1000000 at most), found more (an alias "
                            "expanding recursively?)");
    if (depth > kMaxConvertDepth)
      throw ConfigError(mark_of(node, fallback), "(yaml)",
                        "expected nesting at most " + std::to_string(kMaxConvertDepth) +
                            " levels deep, found deeper (an alias that contains itself?)");
    const SourceMark mark = mark_of(node, fallback);
    const std::string tag = node.Tag();
    if (tag == "!include") return include(node, mark, path);
    const bool standard_tag = tag.empty() || tag == "?" || tag == "!" || tag.starts_with("tag:yaml.org,2002:");
    if (!standard_tag) throw ConfigError(mark, path, "expected no tag or !include, found unknown tag '" + tag + "'");
    switch (node.Type()) {
      case YAML::NodeType::Undefined:
      case YAML::NodeType::Null: return ConfigNode::null(mark);
      case YAML::NodeType::Scalar:
        return ConfigNode::scalar(node.Scalar(), tag == "!" || tag == "tag:yaml.org,2002:str", mark);
      case YAML::NodeType::Sequence: {
        ConfigNode out = ConfigNode::sequence(mark);
        for (const auto& item : node) out.append(convert(item, mark, item_path(path, out.item_count()), depth + 1));
        return out;
      }
      case YAML::NodeType::Map: {
        ConfigNode out = ConfigNode::map(mark);
        for (const auto& pair : node) {
          const SourceMark key_mark = mark_of(pair.first, mark);
          if (!pair.first.IsScalar()) throw ConfigError(key_mark, path, "expected a plain key, found a complex key");
          const std::string key = pair.first.Scalar();
          if (out.mutable_child(key)) {
            throw ConfigError(key_mark, child_path(path, key),
                              "expected each key once per mapping, found '" + key + "' again (first at line " +
                                  std::to_string(out.key_mark(key).line) + ")");
          }
          out.set(key, convert(pair.second, key_mark, child_path(path, key), depth + 1), key_mark);
        }
        return out;
      }
    }
    return ConfigNode::null(mark);
  }

  ConfigNode include(const YAML::Node& node, const SourceMark& mark, const std::string& path) {
    if (!node.IsScalar() || node.Scalar().empty())
      throw ConfigError(mark, path, "expected !include followed by a file name, found something else");
    const std::string target = resolve_relative(file_, node.Scalar());
    const std::string identity = canonical_name(target);
    if (std::find(include_stack_.begin(), include_stack_.end(), identity) != include_stack_.end()) {
      std::string chain;
      for (const auto& entry : display_stack_) chain += entry + " -> ";
      throw ConfigError(mark, path, "expected an include chain without cycles, found " + chain + target);
    }
    if (include_stack_.size() >= kMaxIncludeDepth)
      throw ConfigError(mark, path, "expected includes nested at most 32 deep, found deeper");
    if (!config_file_exists(target))
      throw ConfigError(mark, path, "expected an existing file to include, found no file '" + target + "'");
    std::vector<std::string> stack = include_stack_, display = display_stack_;
    stack.push_back(identity);
    display.push_back(target);
    Converter inner(std::move(stack), std::move(display));
    inner.node_count_ = node_count_;
    inner.node_budget_ = node_budget_;
    ConfigNode included = inner.parse_document(read_config_bytes(target), target, path);
    node_count_ = inner.node_count_;
    node_budget_ = inner.node_budget_;
    return included;
  }

  std::vector<std::string> include_stack_;
  std::vector<std::string> display_stack_;
  std::string file_;
  int line_offset_ = 0;
  int column_offset_ = 0;
  std::size_t node_count_ = 0;
  std::size_t node_budget_ = 0;  // node_count_ may reach this (kNodesPerFile, kNodesPerByte)
};

// Leaves (scalars, nulls) and sequences of leaves print on one line: [1, 3, 224, 224].
bool is_leaf(const ConfigNode& node) { return node.is_scalar() || node.is_null(); }
bool is_flat(const ConfigNode& node) {
  if (is_leaf(node)) return true;
  if (!node.is_sequence()) return false;
  for (const auto& item : node.items())
    if (!is_leaf(item)) return false;
  return true;
}

void emit(YAML::Emitter& out, const ConfigNode& node) {
  switch (node.kind()) {
    case ConfigNode::Kind::null: out << YAML::Null; break;
    case ConfigNode::Kind::scalar:
      if (node.quoted()) out << YAML::DoubleQuoted;
      out << node.text();
      break;
    case ConfigNode::Kind::sequence:
      if (is_flat(node)) out << YAML::Flow;
      out << YAML::BeginSeq;
      for (const auto& item : node.items()) emit(out, item);
      out << YAML::EndSeq;
      break;
    case ConfigNode::Kind::map: {
      // A small mapping of flat values, such as a model entry or an op, prints on one line.
      bool flat = node.keys().size() <= 12;
      for (const auto& key : node.keys()) flat = flat && is_flat(*node.peek(key));
      if (flat && !node.keys().empty()) out << YAML::Flow;
      out << YAML::BeginMap;
      for (const auto& key : node.keys()) {
        out << YAML::Key << key << YAML::Value;
        emit(out, *node.peek(key));
      }
      out << YAML::EndMap;
      break;
    }
  }
}

}  // namespace

std::string resolve_config_path(const std::string& from, const std::string& target) {
  return resolve_relative(from, target);
}

bool config_file_exists(const std::string& path) {
  if (is_embedded(path)) return find_embedded(path) != nullptr;
  std::error_code error;
  return fs::is_regular_file(path, error);
}

std::string read_config_bytes(const std::string& path) {
  if (is_embedded(path)) {
    if (const EmbeddedFile* file = find_embedded(path)) return std::string(file->content);
    throw UserError(path + ": cannot read: no such file embedded in this binary");
  }
  return read_input_file(path, kMaxTextInputBytes, "a YAML file");
}

ConfigNode load_config_file(const std::string& path) {
  return Converter({canonical_name(path)}, {path}).parse_document(read_config_bytes(path), path);
}

ConfigNode load_config_text(const std::string& text, const std::string& display_name) {
  return Converter({canonical_name(display_name)}, {display_name}).parse_document(text, display_name);
}

ConfigNode parse_yaml_value(const std::string& text, const SourceMark& origin) {
  return Converter({}, {}).parse_document(text, origin.file, "(root)", origin.line - 1, origin.column - 1);
}

std::string to_yaml(const ConfigNode& node) {
  YAML::Emitter out;
  emit(out, node);
  return std::string(out.c_str()) + "\n";
}

}  // namespace dse
