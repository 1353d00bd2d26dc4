#include "sim/config/yaml_node_count.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <sstream>
#include <vector>

#include "sim/config/config_node.h"

namespace dse {
namespace {

// The parser's events, counted; the key path of the current node is kept for the message.
class NodeCounter final : public YAML::EventHandler {
 public:
  NodeCounter(std::size_t budget, std::string root_path) : budget_(budget), root_path_(std::move(root_path)) {}

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { leaf(mark, ""); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { leaf(mark, ""); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string& value) override {
    leaf(mark, value);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    open(mark, false);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    open(mark, true);
  }
  void OnMapEnd() override { close(); }

 private:
  struct Frame {
    bool map = false;
    bool is_key = false;  // this collection is a (complex) key of its parent map
    bool key_next = true;
    std::size_t items = 0;
    std::string key;
  };

  bool at_key() const { return !frames_.empty() && frames_.back().map && frames_.back().key_next; }
  void count(const YAML::Mark& mark) {
    if (++count_ > budget_) throw YamlOverBudget{mark, path()};
  }
  void next_value() {
    if (frames_.empty()) return;
    Frame& top = frames_.back();
    if (top.map)
      top.key_next = true;
    else
      ++top.items;
  }
  void leaf(const YAML::Mark& mark, const std::string& scalar) {
    if (at_key()) {
      frames_.back().key = scalar;
      frames_.back().key_next = false;
      return;
    }
    count(mark);
    next_value();
  }
  void open(const YAML::Mark& mark, bool map) {
    const bool is_key = at_key();
    if (!is_key) count(mark);
    frames_.push_back({map, is_key, true, 0, ""});
  }
  void close() {
    const bool was_key = frames_.back().is_key;
    frames_.pop_back();
    if (was_key)
      frames_.back().key_next = false;
    else
      next_value();
  }
  std::string path() const {
    std::string out = root_path_;
    for (const Frame& frame : frames_) out = frame.map ? child_path(out, frame.key) : item_path(out, frame.items);
    return out;
  }

  std::size_t budget_;
  std::string root_path_;
  std::size_t count_ = 0;
  std::vector<Frame> frames_;
};

}  // namespace

std::optional<YamlOverBudget> find_yaml_node_over_budget(const std::string& text, std::size_t budget,
                                                         const std::string& root_path) {
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  NodeCounter counter(budget, root_path);
  try {
    parser.HandleNextDocument(counter);
  } catch (const YamlOverBudget& over) {
    return over;
  }
  return std::nullopt;
}

}  // namespace dse
