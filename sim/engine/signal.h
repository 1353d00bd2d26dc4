// A signal observers connect to (SimGrid's on_start / on_completion), so what watches the
// simulation need not live inside a device. The GPU executor emits kernel_started and
// kernel_completed (sim/runtime/gpu_executor.h); today the runs record their timeline through the
// launch callbacks instead, and nothing connects to these yet.
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
