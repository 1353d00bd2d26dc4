#include "sim/config/config_node.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>

#include "models/base/cut_input.h"
#include "models/base/did_you_mean.h"

namespace dse {

std::string SourceMark::str() const { return file + ":" + std::to_string(line) + ":" + std::to_string(column); }

ConfigError::ConfigError(const SourceMark& mark, const std::string& key_path, const std::string& message)
    : UserError(mark.str() + ": " + key_path + ": " + message) {}

std::string child_path(const std::string& parent, std::string_view key) {
  if (parent == "(root)" || parent.empty()) return std::string(key);
  return parent + "." + std::string(key);
}

std::string item_path(const std::string& parent, std::size_t index) {
  const std::string base = parent == "(root)" ? std::string() : parent;
  return base + "[" + std::to_string(index) + "]";
}

ConfigNode ConfigNode::null(SourceMark mark) {
  ConfigNode node;
  node.kind_ = Kind::null;
  node.mark_ = std::move(mark);
  return node;
}

ConfigNode ConfigNode::scalar(std::string text, bool quoted, SourceMark mark) {
  ConfigNode node;
  node.kind_ = Kind::scalar;
  node.text_ = std::move(text);
  node.quoted_ = quoted;
  node.mark_ = std::move(mark);
  return node;
}

ConfigNode ConfigNode::sequence(SourceMark mark) {
  ConfigNode node;
  node.kind_ = Kind::sequence;
  node.mark_ = std::move(mark);
  return node;
}

ConfigNode ConfigNode::map(SourceMark mark) {
  ConfigNode node;
  node.kind_ = Kind::map;
  node.mark_ = std::move(mark);
  return node;
}

void ConfigNode::fail(const std::string& message) const { throw ConfigError(mark_, path_, message); }

void ConfigNode::expect_map(std::string_view what) const {
  if (!is_map()) fail("expected a mapping (" + std::string(what) + "), found " + describe());
}

std::string ConfigNode::describe() const {
  switch (kind_) {
    case Kind::null: return path_ == "(root)" ? "an empty document" : "nothing (null)";
    case Kind::sequence: return "a sequence";
    case Kind::map: return "a mapping";
    case Kind::scalar: break;
  }
  std::string out = "\"";
  std::size_t shown = 0;
  for (const unsigned char c : text_) {
    if (++shown > 48) {
      out += "...";
      break;
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// --- maps -----------------------------------------------------------------------------------------

bool ConfigNode::has(std::string_view key) const { return find(key) != nullptr; }

const ConfigNode* ConfigNode::find(std::string_view key) const {
  expect_map("with key '" + std::string(key) + "'");
  known_keys_.emplace(key);
  for (const auto& entry : entries_)
    if (entry.key == key) return &entry.value;
  return nullptr;
}

const ConfigNode& ConfigNode::at(std::string_view key, std::string_view what) const {
  if (const ConfigNode* child = find(key)) return *child;
  // A present key that looks like a typo of the missing one is the likely culprit.
  std::string hint;
  if (const auto typo = closest_name(key, keys()))
    hint = "; did you mean to write '" + std::string(key) + "' for '" + *typo + "'?";
  throw ConfigError(
      mark_, child_path(path_, key),
      "expected key '" + std::string(key) + "' (" + std::string(what) + "), found a mapping without it" + hint);
}

const ConfigNode* ConfigNode::peek(std::string_view key) const {
  for (const auto& entry : entries_)
    if (entry.key == key) return &entry.value;
  return nullptr;
}

std::vector<std::string> ConfigNode::keys() const {
  std::vector<std::string> out;
  for (const auto& entry : entries_) out.push_back(entry.key);
  return out;
}

const SourceMark& ConfigNode::key_mark(std::string_view key) const {
  for (const auto& entry : entries_)
    if (entry.key == key) return entry.key_mark;
  return mark_;
}

std::span<const ConfigNode> ConfigNode::items() const {
  if (!is_sequence()) fail("expected a sequence, found " + describe());
  return items_;
}

void ConfigNode::check_unknown_keys() const {
  if (is_sequence()) {
    for (const auto& item : items_) item.check_unknown_keys();
    return;
  }
  if (!is_map()) return;
  for (const auto& entry : entries_) {
    if (!known_keys_.contains(entry.key)) {
      std::vector<std::string> valid(known_keys_.begin(), known_keys_.end());
      const std::string expected =
          valid.empty() ? "expected no keys here" : "expected one of the keys " + join_names(valid);
      throw ConfigError(
          entry.key_mark, child_path(path_, entry.key),
          expected + ", found unknown key '" + cut_input(entry.key) + "'" + did_you_mean_suffix(entry.key, valid));
    }
    entry.value.check_unknown_keys();
  }
}

// --- building -------------------------------------------------------------------------------------

void ConfigNode::set_path(const std::string& path) {
  path_ = path;
  for (auto& entry : entries_) entry.value.set_path(child_path(path_, entry.key));
  for (std::size_t i = 0; i < items_.size(); ++i) items_[i].set_path(item_path(path_, i));
}

ConfigNode& ConfigNode::set(const std::string& key, ConfigNode child, SourceMark key_mark) {
  child.set_path(child_path(path_, key));
  for (auto& entry : entries_) {
    if (entry.key == key) {
      entry.value = std::move(child);
      entry.key_mark = std::move(key_mark);
      return entry.value;
    }
  }
  entries_.push_back({key, std::move(key_mark), std::move(child)});
  return entries_.back().value;
}

ConfigNode& ConfigNode::append(ConfigNode child) {
  child.set_path(item_path(path_, items_.size()));
  items_.push_back(std::move(child));
  return items_.back();
}

ConfigNode* ConfigNode::mutable_child(std::string_view key) {
  for (auto& entry : entries_)
    if (entry.key == key) return &entry.value;
  return nullptr;
}

void ConfigNode::erase(std::string_view key) {
  std::erase_if(entries_, [key](const Entry& entry) { return entry.key == key; });
}

ConfigNode* ConfigNode::mutable_item(std::size_t index) { return index < items_.size() ? &items_[index] : nullptr; }

void ConfigNode::erase_item(std::size_t index) {
  if (index >= items_.size()) return;
  items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(index));
  for (std::size_t i = index; i < items_.size(); ++i) items_[i].set_path(item_path(path_, i));
}

// --- typed values ---------------------------------------------------------------------------------

template <>
std::string expected_type_name<std::string>() {
  return "a string";
}
template <>
std::string expected_type_name<bool>() {
  return "true or false";
}
template <>
std::string expected_type_name<int>() {
  return "an integer";
}
template <>
std::string expected_type_name<std::int64_t>() {
  return "an integer";
}
template <>
std::string expected_type_name<double>() {
  return "a number";
}

namespace {

template <class Int>
std::optional<Int> parse_integer(const std::string& text) {
  std::string_view digits = text;
  if (digits.starts_with('+')) digits.remove_prefix(1);
  Int value{};
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size() || digits.empty()) return std::nullopt;
  return value;
}

std::optional<double> parse_number(const std::string& text) {
  std::string_view digits = text;
  if (digits.starts_with('+')) digits.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size() || digits.empty() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

}  // namespace

template <class T>
T ConfigNode::as() const {
  const auto wrong = [this] { fail("expected " + expected_type_name<T>() + ", found " + describe()); };
  if (!is_scalar()) wrong();
  if constexpr (std::is_same_v<T, std::string>) {
    return text_;
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!quoted_) {
      if (text_ == "true" || text_ == "True" || text_ == "TRUE") return true;
      if (text_ == "false" || text_ == "False" || text_ == "FALSE") return false;
    }
    wrong();
  } else if constexpr (std::is_integral_v<T>) {
    if (!quoted_) {
      if (const auto value = parse_integer<T>(text_)) return *value;
      if (parse_integer<long long>(text_))
        fail("expected " + expected_type_name<T>() + " that fits in " + std::to_string(sizeof(T) * 8) +
             " bits, found " + cut_input(text_));
    }
    wrong();
  } else {
    if (!quoted_) {
      if (const auto value = parse_number(text_)) return *value;
    }
    wrong();
  }
  return T{};  // unreachable: wrong() throws
}

template std::string ConfigNode::as<std::string>() const;
template bool ConfigNode::as<bool>() const;
template int ConfigNode::as<int>() const;
template std::int64_t ConfigNode::as<std::int64_t>() const;
template double ConfigNode::as<double>() const;

// --- ParamRead ------------------------------------------------------------------------------------

namespace {
template <class T>
std::string number_text(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    std::ostringstream out;
    out << value;
    return out.str();
  } else {
    return std::to_string(value);
  }
}
}  // namespace

template <class T>
T ParamRead<T>::check(const ConfigNode& node) const {
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    if (low_ && high_) {
      const std::string expected =
          expected_type_name<T>() + " in [" + number_text(*low_) + ", " + number_text(*high_) + "]";
      if (!node.is_scalar() || node.quoted()) node.fail("expected " + expected + ", found " + node.describe());
      T value{};
      try {
        value = node.as<T>();
      } catch (const ConfigError&) {
        node.fail("expected " + expected + ", found " + node.describe());
      }
      if (value < *low_ || value > *high_) node.fail("expected " + expected + ", found " + cut_input(node.text()));
      return value;
    }
  }
  T value = node.as<T>();
  if constexpr (std::is_same_v<T, std::string>) {
    if (!choices_.empty() && std::find(choices_.begin(), choices_.end(), value) == choices_.end()) {
      const std::string names = choices_what_ == "one of" ? "one of " + join_names(choices_)
                                                          : choices_what_ + " (" + join_names(choices_) + ")";
      node.fail("expected " + names + ", found " + node.describe() + did_you_mean_suffix(value, choices_));
    }
  }
  return value;
}

template <class T>
T ParamRead<T>::required() const {
  return check(map_.at(key_, expected_type_name<T>()));
}

template <class T>
T ParamRead<T>::with_default(T value) const {
  const ConfigNode* node = map_.find(key_);
  return node ? check(*node) : value;
}

template <class T>
std::optional<T> ParamRead<T>::optional() const {
  const ConfigNode* node = map_.find(key_);
  if (!node) return std::nullopt;
  return check(*node);
}

template class ParamRead<std::string>;
template class ParamRead<bool>;
template class ParamRead<int>;
template class ParamRead<std::int64_t>;
template class ParamRead<double>;

}  // namespace dse
