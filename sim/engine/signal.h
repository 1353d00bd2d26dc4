// A signal observers connect to (SimGrid's on_start / on_completion), so what watches the
// simulation need not live inside a device: the shared-resource executor emits the load of what
// runs (sim/runtime/shared_resource.h), which a GPU pass's and a serving run's power accounting
// observe; the GPU executor emits each kernel's start (its clock sets the board's held power).
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
