// A signal observers connect to (SimGrid's on_start / on_completion): metrics, traces and power
// models watch the simulation this way instead of living inside devices.
#pragma once

#include <functional>
#include <vector>

namespace dse {

template <class... Args>
class Signal {
 public:
  using Slot = std::function<void(Args...)>;
  void connect(Slot slot) { slots_.push_back(std::move(slot)); }
  void emit(Args... args) const {
    for (const auto& slot : slots_) slot(args...);
  }

 private:
  std::vector<Slot> slots_;
};

}  // namespace dse
