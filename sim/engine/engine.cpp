#include "sim/engine/engine.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "models/base/checked_count.h"

namespace dse {

TimePs checked_ps(double picoseconds, const char* what) {
  const double whole = std::ceil(picoseconds);
  // 2^63 is exactly representable; anything at or above it (or NaN) does not fit.
  if (!(whole < 9223372036854775808.0)) throw CountOverflow(std::string(what) + " in picoseconds");
  return static_cast<TimePs>(whole);
}

void Engine::schedule_after(TimePs delay, Action action) {
  schedule_at(checked_add(now_, delay, "the simulated time in picoseconds"), std::move(action));
}

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
