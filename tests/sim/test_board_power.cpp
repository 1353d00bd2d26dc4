// BoardPower's mean over any span and its sensor readings, against hand-integrated step series.
#include <gtest/gtest.h>

#include "sim/metrics/board_power.h"

namespace dse {
namespace {

constexpr TimePs kSecond = 1'000'000'000'000;

// 100 W over [0, 1 s), 200 W over [1 s, 3 s), 50 W from 3 s.
BoardPower three_steps() {
  BoardPower board;
  board.set(0, 100, 1000);
  board.set(kSecond, 200, 1500);
  board.set(3 * kSecond, 50, 1000);
  return board;
}

TEST(BoardPower, MeanOverASpanIsTheStepsIntegralOverItsLength) {
  const BoardPower board = three_steps();
  EXPECT_DOUBLE_EQ(board.mean_w(0, kSecond), 100.0);
  EXPECT_DOUBLE_EQ(board.mean_w(kSecond / 2, 3 * kSecond / 2), 150.0);      // 0.5 s at 100 W + 0.5 s at 200 W
  EXPECT_DOUBLE_EQ(board.mean_w(0, 4 * kSecond), 137.5);                    // (100 + 400 + 50) J / 4 s
  EXPECT_DOUBLE_EQ(board.mean_w(5 * kSecond / 2, 7 * kSecond / 2), 125.0);  // (100 + 25) J / 1 s
  EXPECT_DOUBLE_EQ(board.mean_w(5 * kSecond, 6 * kSecond), 50.0);           // past the last change
  // An empty span: the power drawn at that instant (a change at it counts from it).
  EXPECT_DOUBLE_EQ(board.mean_w(kSecond, kSecond), 200.0);
  EXPECT_DOUBLE_EQ(board.mean_w(7 * kSecond / 2, 7 * kSecond / 2), 50.0);
  EXPECT_THROW((void)board.mean_w(2 * kSecond, kSecond), std::logic_error);
}

TEST(BoardPower, TheBoardDrawsNothingBeforeItsFirstChange) {
  BoardPower board;
  board.set(kSecond, 80, 1000);
  EXPECT_DOUBLE_EQ(board.mean_w(0, 2 * kSecond), 40.0);  // 0 J then 80 J over 2 s
  EXPECT_DOUBLE_EQ(board.mean_w(0, kSecond / 2), 0.0);
  EXPECT_DOUBLE_EQ(BoardPower().mean_w(0, kSecond), 0.0);
}

TEST(BoardPower, AWindowedReadingIsTheMeanOverTheWindowBeforeIt) {
  BoardPower board = three_steps();
  // 0.3 s before 1.5 s: all at 200 W.
  EXPECT_DOUBLE_EQ(board.read_sensor(3 * kSecond / 2, 3 * kSecond / 10).power_w, 200.0);
  // 0.2 s before 3.1 s: 0.1 s at 200 W and 0.1 s at 50 W.
  EXPECT_NEAR(board.read_sensor(31 * kSecond / 10, kSecond / 5).power_w, 125.0, 1e-9);
  // A window of 0: the power at the instant.
  const PowerSample now = board.read_sensor(4 * kSecond, 0);
  EXPECT_DOUBLE_EQ(now.power_w, 50.0);
  EXPECT_DOUBLE_EQ(now.clock_mhz, 1000.0);
  // A window reaching before 0 starts at 0: 100 J over the first second.
  EXPECT_DOUBLE_EQ(three_steps().read_sensor(kSecond, 2 * kSecond).power_w, 100.0);
}

TEST(BoardPower, TheUnwindowedReadingStaysTheMeanSinceThePreviousReading) {
  // Read as a run goes (never before the last change).
  BoardPower board;
  board.set(0, 100, 1000);
  board.set(kSecond, 200, 1500);
  EXPECT_DOUBLE_EQ(board.read_sensor(2 * kSecond).power_w, 150.0);  // (100 + 200) J / 2 s
  board.set(3 * kSecond, 50, 1000);
  EXPECT_DOUBLE_EQ(board.read_sensor(4 * kSecond).power_w, 125.0);  // (200 + 50) J / 2 s
  // A windowed reading moves the previous reading's time too.
  EXPECT_DOUBLE_EQ(board.read_sensor(5 * kSecond, kSecond / 10).power_w, 50.0);
  EXPECT_DOUBLE_EQ(board.read_sensor(6 * kSecond).power_w, 50.0);
}

}  // namespace
}  // namespace dse
