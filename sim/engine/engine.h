// The discrete-event core: a clock and an event heap, as an object (no static state), so that a
// search can run one engine per thread.
//
// Contract: time is an integer number of picoseconds and never goes backwards; events at the same
// time run in the order they were scheduled, so a run is bit-for-bit reproducible. An action may
// schedule further events (at or after now()); scheduling in the past throws std::logic_error.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <stdexcept>
#include <vector>

namespace dse {

using TimePs = std::int64_t;

inline constexpr double ps_to_ms(TimePs t) { return static_cast<double>(t) * 1e-9; }
inline constexpr double ps_to_us(TimePs t) { return static_cast<double>(t) * 1e-6; }
// Whole picoseconds (rounded up) of a duration in picoseconds as a double; CountOverflow
// (models/base/checked_count.h) naming `what` past INT64_MAX ps (106 days) or for NaN, which a cast
// would turn into a negative time.
TimePs checked_ps(double picoseconds, const char* what);

// Thrown by Engine::run when its wall-clock deadline passes (a search trial's time limit).
class SimulationTimeout : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using WallDeadline = std::optional<std::chrono::steady_clock::time_point>;

class Engine {
 public:
  using Action = std::function<void()>;

  TimePs now() const { return now_; }
  void schedule_at(TimePs time, Action action);
  // CountOverflow when now + delay passes INT64_MAX ps.
  void schedule_after(TimePs delay, Action action);
  // Runs events until none are left; returns how many ran. With a deadline, throws
  // SimulationTimeout once the wall clock passes it (checked every 64 events).
  std::uint64_t run();
  void set_deadline(WallDeadline deadline) { deadline_ = deadline; }
  std::uint64_t events_run() const { return events_run_; }

 private:
  struct Event {
    TimePs time;
    std::uint64_t sequence;
    Action action;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.time != b.time ? a.time > b.time : a.sequence > b.sequence;
    }
  };
  TimePs now_ = 0;
  std::uint64_t next_sequence_ = 0;
  std::uint64_t events_run_ = 0;
  WallDeadline deadline_;
  std::priority_queue<Event, std::vector<Event>, Later> events_;
};

}  // namespace dse
