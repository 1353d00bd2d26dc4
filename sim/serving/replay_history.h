// The rows before which one timing reading of a governor replay (sim/serving/governor_replay.h) had
// its governor act, as a tree shared between readings: a reading that acts extends its own history,
// one that waits keeps it. The replay orders its readings as it made them, the one that acted
// before the one that waited, so two readings compare by the first row where their histories part.
//
// Contract: a history answers order questions only about histories grown from the same root;
// comparing costs O(log rows) (skew-binary jump pointers, Myers 1983).
#pragma once

#include <cstddef>
#include <memory>

namespace dse {

class ActionHistory {
 public:
  // The history of a reading that has not acted since it began (the replay's start, a resync).
  static std::shared_ptr<const ActionHistory> root();
  // `before`, then an action before data row `row` (rows grow along a history).
  static std::shared_ptr<const ActionHistory> acted(std::shared_ptr<const ActionHistory> before, std::size_t row);

  ActionHistory() = default;
  ActionHistory(const ActionHistory&) = delete;
  ActionHistory& operator=(const ActionHistory&) = delete;
  // Frees a long chain without recursing once per action.
  ~ActionHistory();

 private:
  friend bool acted_first(const ActionHistory& a, const ActionHistory& b);
  const ActionHistory* ancestor_at(std::size_t depth) const;

  std::shared_ptr<ActionHistory> parent_;  // null at the root
  const ActionHistory* jump_ = this;       // an ancestor, for O(log) climbs
  std::size_t row_ = 0;                    // the row it acted before (0 at the root)
  std::size_t depth_ = 0;                  // actions since the root
};

// Whether the reading with history `a` comes before the one with history `b` in the replay's
// order: at the first row where they differ, `a` acted and `b` waited. False for equal histories.
bool acted_first(const ActionHistory& a, const ActionHistory& b);

}  // namespace dse
