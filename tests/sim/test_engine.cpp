#include <gtest/gtest.h>

#include "sim/engine/engine.h"

namespace dse {

TEST(Engine, RunsEventsInTimeThenInsertionOrder) {
  Engine engine;
  std::vector<int> order;
  engine.schedule_at(20, [&] { order.push_back(3); });
  engine.schedule_at(10, [&] { order.push_back(1); });
  engine.schedule_at(10, [&] { order.push_back(2); });  // same time: after the first one scheduled
  EXPECT_EQ(engine.run(), 3u);
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(engine.now(), 20);
}

TEST(Engine, ActionsScheduleFurtherEventsAndTheClockNeverGoesBack) {
  Engine engine;
  std::vector<TimePs> seen;
  std::function<void()> tick = [&] {
    seen.push_back(engine.now());
    if (seen.size() < 5) engine.schedule_after(7, tick);
  };
  engine.schedule_at(0, tick);
  engine.run();
  EXPECT_EQ(seen, (std::vector<TimePs>{0, 7, 14, 21, 28}));
  EXPECT_THROW(engine.schedule_at(27, [] {}), std::logic_error);
  EXPECT_EQ(engine.events_run(), 5u);
}

TEST(Engine, EnginesAreIndependentObjects) {
  Engine a, b;
  a.schedule_at(100, [] {});
  a.run();
  EXPECT_EQ(a.now(), 100);
  EXPECT_EQ(b.now(), 0);
}

}  // namespace dse
