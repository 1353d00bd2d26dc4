#include <gtest/gtest.h>

#include <map>

#include "sim/runtime/streams.h"

namespace dse {
namespace {

KernelWork kernel(const std::string& name, TimePs duration, double share, double bytes = 0) {
  return {name, duration, share, bytes, "compute"};
}

struct SimRun {
  Engine engine;
  GpuExecutor gpu;
  StreamRuntime runtime;
  std::map<std::string, std::pair<TimePs, TimePs>> times;
  explicit SimRun(double bandwidth = 1e15) : gpu(engine, bandwidth), runtime(engine, gpu) {}
  StreamRuntime::Done track(const std::string& name) {
    return [this, name](TimePs s, TimePs e) { times[name] = {s, e}; };
  }
  void go() {
    engine.schedule_at(0, [this] { runtime.start(); });
    engine.run();
  }
};

}  // namespace

TEST(Streams, TwoIdenticalKernelsOnTwoStreamsBetweenOneAloneAndBothInSequence) {
  for (const double share : {1.0, 0.7, 0.5, 0.2}) {
    SimRun run;
    const int a = run.runtime.create_stream(), b = run.runtime.create_stream();
    run.runtime.launch(a, kernel("k1", 1000, share), run.track("k1"));
    run.runtime.launch(b, kernel("k2", 1000, share), run.track("k2"));
    run.go();
    const TimePs finish = std::max(run.times["k1"].second, run.times["k2"].second);
    EXPECT_GE(finish, 1000) << share;
    EXPECT_LE(finish, 2000) << share;
    // Leftover policy by hand: the first takes `share` of the slots, the second what is left.
    if (share <= 0.5) {
      EXPECT_EQ(finish, 1000) << share;  // both fit side by side
    }
    if (share == 1.0) {
      EXPECT_EQ(finish, 2000);  // the second gets no slots until the first ends
    }
  }
}

TEST(Streams, InOrderWithinAStreamAndEventsAcrossStreams) {
  SimRun run;
  const int a = run.runtime.create_stream(), b = run.runtime.create_stream();
  const auto event = run.runtime.create_event();
  run.runtime.launch(a, kernel("a1", 500, 0.1), run.track("a1"));
  run.runtime.launch(a, kernel("a2", 500, 0.1), run.track("a2"));
  run.runtime.record(a, event);
  run.runtime.wait(b, event);
  run.runtime.launch(b, kernel("b1", 100, 0.1), run.track("b1"));
  run.go();
  EXPECT_EQ(run.times["a1"], (std::pair<TimePs, TimePs>{0, 500}));
  EXPECT_EQ(run.times["a2"], (std::pair<TimePs, TimePs>{500, 1000}));
  EXPECT_EQ(run.times["b1"], (std::pair<TimePs, TimePs>{1000, 1100}));  // after the event
}

TEST(Streams, WaitingOnAnUnrecordedEventDoesNotWait) {
  SimRun run;
  const int a = run.runtime.create_stream();
  const auto never = run.runtime.create_event();
  run.runtime.wait(a, never);
  run.runtime.launch(a, kernel("k", 10, 1.0), run.track("k"));
  run.go();
  EXPECT_EQ(run.times["k"].first, 0);
}

// A graph edge (a schedule's sync point) holds even when the record is enqueued after the wait.
TEST(Streams, AGraphEdgeWaitsForARecordEnqueuedLater) {
  SimRun run;
  const int a = run.runtime.create_stream(), b = run.runtime.create_stream();
  const auto edge = run.runtime.create_event(true);
  run.runtime.wait(a, edge);
  run.runtime.launch(a, kernel("after", 10, 0.5), run.track("after"));
  run.runtime.launch(b, kernel("before", 300, 0.5), run.track("before"));
  run.runtime.record(b, edge);
  run.go();
  EXPECT_EQ(run.times["after"].first, 300);
}

// An item the host issues at t does not start before t, even on an idle stream.
TEST(Streams, NothingStartsBeforeTheHostIssuesIt) {
  SimRun run;
  const int a = run.runtime.create_stream();
  run.runtime.launch(a, kernel("first", 100, 1.0), run.track("first"), 0);
  run.runtime.launch(a, kernel("late", 100, 1.0), run.track("late"), 700);
  run.runtime.launch(a, kernel("next", 100, 1.0), run.track("next"), 750);
  run.go();
  EXPECT_EQ(run.times["first"], (std::pair<TimePs, TimePs>{0, 100}));
  EXPECT_EQ(run.times["late"], (std::pair<TimePs, TimePs>{700, 800}));
  EXPECT_EQ(run.times["next"], (std::pair<TimePs, TimePs>{800, 900}));  // issued at 750, behind `late`
}

TEST(Streams, PriorityStreamsTakeTheSlotsFirst) {
  SimRun run;
  const int low = run.runtime.create_stream(0), high = run.runtime.create_stream(5);
  run.runtime.launch(low, kernel("low", 1000, 1.0), run.track("low"));
  run.runtime.launch(high, kernel("high", 1000, 1.0), run.track("high"));
  run.go();
  EXPECT_EQ(run.times["high"].second, 1000);
  EXPECT_EQ(run.times["low"].second, 2000);
}

TEST(GpuExecutor, SharedBandwidthSlowsOverlappingMemoryBoundKernels) {
  // Each kernel alone moves 1e6 bytes in 1e6 ps (1e12 B/s); the GPU has 1e12 B/s: two together
  // each get half, so both finish at 2e6 ps though they fill only 10 % of the slots each.
  SimRun run(1e12);
  const int a = run.runtime.create_stream(), b = run.runtime.create_stream();
  run.runtime.launch(a, kernel("m1", 1'000'000, 0.1, 1e6), run.track("m1"));
  run.runtime.launch(b, kernel("m2", 1'000'000, 0.1, 1e6), run.track("m2"));
  run.go();
  EXPECT_EQ(run.times["m1"].second, 2'000'000);
  EXPECT_EQ(run.times["m2"].second, 2'000'000);
}

TEST(GpuExecutor, AKernelAloneTakesItsStandaloneDuration) {
  SimRun run(1.0);  // even with a bandwidth its own traffic exceeds
  const int a = run.runtime.create_stream();
  run.runtime.launch(a, kernel("k", 12345, 0.3, 1e9), run.track("k"));
  run.go();
  EXPECT_EQ(run.times["k"], (std::pair<TimePs, TimePs>{0, 12345}));
}

}  // namespace dse
