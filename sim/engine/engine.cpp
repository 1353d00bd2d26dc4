#include "sim/engine/engine.h"

#include <stdexcept>
#include <string>

namespace dse {

void Engine::schedule_at(TimePs time, Action action) {
  if (time < now_) {
    throw std::logic_error("event scheduled at " + std::to_string(time) + " ps, before now (" + std::to_string(now_) +
                           " ps)");
  }
  events_.push({time, next_sequence_++, std::move(action)});
}

std::uint64_t Engine::run() {
  std::uint64_t ran = 0;
  while (!events_.empty()) {
    // Move the action out before popping: it may schedule new events.
    Event event = std::move(const_cast<Event&>(events_.top()));
    events_.pop();
    now_ = event.time;
    event.action();
    ++ran;
    if (deadline_ && (ran & 63) == 0 && std::chrono::steady_clock::now() > *deadline_) {
      events_run_ += ran;
      throw SimulationTimeout("the simulation passed its wall-clock deadline at simulated time " +
                              std::to_string(ps_to_ms(now_)) + " ms");
    }
  }
  events_run_ += ran;
  return ran;
}

}  // namespace dse
