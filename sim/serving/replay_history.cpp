#include "sim/serving/replay_history.h"

#include <utility>

namespace dse {

std::shared_ptr<const ActionHistory> ActionHistory::root() { return std::make_shared<ActionHistory>(); }

std::shared_ptr<const ActionHistory> ActionHistory::acted(std::shared_ptr<const ActionHistory> before,
                                                          std::size_t row) {
  auto node = std::make_shared<ActionHistory>();
  const ActionHistory* parent = before.get();
  const ActionHistory* jump = parent->jump_;
  // Myers' rule: jump twice as far as the parent's jump where the two jumps below are equal.
  node->jump_ = parent->depth_ - jump->depth_ == jump->depth_ - jump->jump_->depth_ ? jump->jump_ : parent;
  node->parent_ = std::const_pointer_cast<ActionHistory>(std::move(before));
  node->row_ = row;
  node->depth_ = parent->depth_ + 1;
  return node;
}

ActionHistory::~ActionHistory() {
  std::shared_ptr<ActionHistory> next = std::move(parent_);
  while (next && next.use_count() == 1) next = std::move(next->parent_);
}

const ActionHistory* ActionHistory::ancestor_at(std::size_t depth) const {
  const ActionHistory* node = this;
  while (node->depth_ > depth) node = node->jump_->depth_ >= depth ? node->jump_ : node->parent_.get();
  return node;
}

bool acted_first(const ActionHistory& a, const ActionHistory& b) {
  const ActionHistory* x = &a;
  const ActionHistory* y = &b;
  // Where one history is the other's beginning, the longer one acted where the shorter waited.
  if (x->depth_ > y->depth_) {
    x = x->ancestor_at(y->depth_);
    if (x == y) return true;
  } else if (y->depth_ > x->depth_) {
    y = y->ancestor_at(x->depth_);
    if (x == y) return false;
  } else if (x == y) {
    return false;
  }
  // Climb to the first actions after the last one they share: the earlier row acted first.
  while (x->parent_ != y->parent_) {
    if (x->jump_ != y->jump_) {
      x = x->jump_;
      y = y->jump_;
    } else {
      x = x->parent_.get();
      y = y->parent_.get();
    }
  }
  return x->row_ < y->row_;
}

}  // namespace dse
