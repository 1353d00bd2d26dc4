#include <gtest/gtest.h>

#include <cstdio>

#include "cli/progress_bar.h"

namespace dse {

TEST(ProgressBar, RendersCountsRateAndEta) {
  // 25 of 100 in 5 s: 5/s, 75 left -> 15 s.
  EXPECT_EQ(ProgressBar::render("search", 25, 100, 5.0, 8, "best 1.2 ms"),
            "search 25/100 [==>     ]  25% 5.0/s ETA 15.0s  best 1.2 ms");
  EXPECT_EQ(ProgressBar::render("x", 4, 4, 2.0, 4, ""), "x 4/4 [====] 100% 2.0/s in 2.0s");
  EXPECT_EQ(ProgressBar::render("x", 0, 4, 0.0, 4, ""), "x 0/4 [>   ]   0% 0.0/s ETA --");
}

TEST(ProgressBar, PrintsNothingWhenNotATerminal) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    ProgressBar bar("work", 10, file);  // a regular file is not a TTY
    EXPECT_FALSE(bar.enabled());
    for (std::size_t i = 0; i <= 10; ++i) bar.update(i, "note");
    bar.finish();
  }
  EXPECT_EQ(std::ftell(file), 0L);
  std::fclose(file);
}

TEST(ProgressBar, DrawsWhenEnabled) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    ProgressBar bar("work", 10, file, true);
    bar.update(3);
    bar.finish();
  }
  EXPECT_GT(std::ftell(file), 0L);
  std::fclose(file);
}

}  // namespace dse
