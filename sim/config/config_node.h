// The configuration tree: YAML read once into plain nodes that remember where they came from.
//
// Every node knows its source (file:line:col) and its key path from the document root
// ("workload.models[0].batch"), so any reader can report an error that points straight at the
// offending text. Readers ask for keys through `param<T>()`, `find()`, `at()` or `has()`; every key
// asked for is remembered, and `check_unknown_keys()` then reports the first key nobody asked for,
// listing the keys that were valid in that place.
//
// Contract: reading never changes the tree's content (only the record of which keys were asked for,
// so a tree is read by one thread at a time; copy it to read it elsewhere). All errors are
// ConfigError, a UserError whose message is "FILE:LINE:COL: key.path: expected X, found Y".
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "models/base/enum_table.h"
#include "models/base/errors.h"

namespace dse {

struct SourceMark {
  std::string file;
  int line = 0;             // 1-based
  int column = 0;           // 1-based
  std::string str() const;  // "file:line:col"
};

class ConfigError : public UserError {
 public:
  ConfigError(const SourceMark& mark, const std::string& key_path, const std::string& message);
};

template <class T>
class ParamRead;

class ConfigNode {
 public:
  enum class Kind { null, scalar, sequence, map };

  ConfigNode() = default;
  static ConfigNode null(SourceMark mark);
  static ConfigNode scalar(std::string text, bool quoted, SourceMark mark);
  static ConfigNode sequence(SourceMark mark);
  static ConfigNode map(SourceMark mark);

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::null; }
  bool is_scalar() const { return kind_ == Kind::scalar; }
  bool is_sequence() const { return kind_ == Kind::sequence; }
  bool is_map() const { return kind_ == Kind::map; }
  const SourceMark& mark() const { return mark_; }
  // Key path from the document root; "(root)" for the root itself.
  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  bool quoted() const { return quoted_; }

  // --- maps -------------------------------------------------------------------------------------
  // Each of these records `key` as valid here (for check_unknown_keys). A non-map node fails with
  // "expected a mapping".
  bool has(std::string_view key) const;
  const ConfigNode* find(std::string_view key) const;
  // The child, or a ConfigError "expected key 'key' (what)" at this map.
  const ConfigNode& at(std::string_view key, std::string_view what) const;
  template <class T>
  ParamRead<T> param(std::string_view key) const;
  // Keys present, in document order.
  std::vector<std::string> keys() const;
  // The child without recording `key` as known (for writers and tools, not for readers).
  const ConfigNode* peek(std::string_view key) const;
  // Where `key` itself is written (for errors about the key rather than its value).
  const SourceMark& key_mark(std::string_view key) const;

  // --- sequences --------------------------------------------------------------------------------
  // The items; fails with "expected a sequence" on anything else.
  std::span<const ConfigNode> items() const;

  // --- values -----------------------------------------------------------------------------------
  // This node as T (std::string, bool, int, std::int64_t, double); fails with a typed message.
  template <class T>
  T as() const;
  // What this node holds, for "found ..." in messages: "\"eight\"", "a mapping", "nothing (null)".
  std::string describe() const;
  [[noreturn]] void fail(const std::string& message) const;
  // Fails unless this node is a mapping; `what` says what the mapping should hold.
  void expect_map(std::string_view what) const;

  // Throws ConfigError for the first key (depth-first, document order) that no reader asked for.
  void check_unknown_keys() const;
  // The keys of this map that code has asked for so far, present or not (declared-key checks).
  std::vector<std::string> asked_keys() const { return {known_keys_.begin(), known_keys_.end()}; }

  // --- building (loader and overrides) ----------------------------------------------------------
  // Adds or replaces a child of a map; returns it. Paths of the child's subtree are re-rooted here.
  ConfigNode& set(const std::string& key, ConfigNode child, SourceMark key_mark);
  ConfigNode& append(ConfigNode child);
  ConfigNode* mutable_child(std::string_view key);
  // Removes `key` from a map (nothing if absent).
  void erase(std::string_view key);
  ConfigNode* mutable_item(std::size_t index);
  // Removes item `index` of a sequence (nothing if past the end); the items after it move up.
  void erase_item(std::size_t index);
  // Re-roots the key paths of this subtree at `path`.
  void set_path(const std::string& path);
  std::size_t item_count() const { return items_.size(); }

 private:
  struct Entry;
  Kind kind_ = Kind::null;
  SourceMark mark_;
  std::string path_ = "(root)";
  std::string text_;
  bool quoted_ = false;
  std::vector<Entry> entries_;     // maps
  std::vector<ConfigNode> items_;  // sequences
  mutable std::set<std::string, std::less<>> known_keys_;
};

struct ConfigNode::Entry {
  std::string key;
  SourceMark key_mark;
  ConfigNode value;
};

// Joins a map key onto a path: "(root)" + "a" -> "a"; "a" + "b" -> "a.b".
std::string child_path(const std::string& parent, std::string_view key);
std::string item_path(const std::string& parent, std::size_t index);

// A typed read of one key of a map, built fluently and finished by required(), with_default() or
// optional(): `node.param<int>("batch").in_range(1, 4096).with_default(1)`.
template <class T>
class ParamRead {
 public:
  ParamRead(const ConfigNode& map, std::string key) : map_(map), key_(std::move(key)) {}
  ParamRead& in_range(T low, T high) {
    low_ = low;
    high_ = high;
    return *this;
  }
  // Valid values of a string parameter; anything else fails listing them with a "did you mean".
  // `what` names them in messages ("a model name").
  ParamRead& one_of(std::vector<std::string> names, std::string what = "one of") {
    choices_ = std::move(names);
    choices_what_ = std::move(what);
    return *this;
  }
  T required() const;
  T with_default(T value) const;
  std::optional<T> optional() const;

 private:
  T check(const ConfigNode& node) const;
  const ConfigNode& map_;
  std::string key_;
  std::optional<T> low_, high_;
  std::vector<std::string> choices_;
  std::string choices_what_;
};

template <class T>
ParamRead<T> ConfigNode::param(std::string_view key) const {
  return ParamRead<T>(*this, std::string(key));
}

// An enum key of a map, by its name table (models/base/enum_table.h): anything but one of the
// table's names fails listing them with a "did you mean"; `what` names them ("a DRAM
// technology"). Without a fallback the key is required.
template <class Enum, std::size_t N>
Enum read_enum(const ConfigNode& map, std::string_view key, const EnumTable<Enum, N>& table, std::string what,
               std::type_identity_t<std::optional<Enum>> fallback = std::nullopt) {
  auto read = map.param<std::string>(key).one_of(table.names(), std::move(what));
  return *table.parse(fallback ? read.with_default(table.name(*fallback)) : read.required());
}

// The wording of a type in messages: "an integer", "a number", "true or false", "a string".
template <class T>
std::string expected_type_name();

}  // namespace dse
