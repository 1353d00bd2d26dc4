// A terminal progress bar for long work (searches, sweeps, calibration): done/total, a bar,
// items per second, ETA and a note such as the best result so far. It draws only when its stream is
// a terminal, so logs and pipes stay clean, and redraws at most 10 times a second.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace dse {

class ProgressBar {
 public:
  // Enabled when `out` is a terminal (isatty), unless `force` says otherwise.
  ProgressBar(std::string label, std::size_t total, std::FILE* out = stderr);
  ProgressBar(std::string label, std::size_t total, std::FILE* out, bool enabled);
  ~ProgressBar();

  bool enabled() const { return enabled_; }
  void update(std::size_t done, std::string_view note = {});
  // Draws the final state and ends the line (only if anything was drawn).
  void finish(std::string_view note = {});

  // One line of text (no terminal codes): "label  42/100 [=====>    ]  42% 12.3/s ETA 4.7s  note".
  static std::string render(std::string_view label, std::size_t done, std::size_t total, double elapsed_s,
                            int bar_width, std::string_view note);

 private:
  void draw(std::size_t done, std::string_view note);
  std::string label_;
  std::size_t total_;
  std::FILE* out_;
  bool enabled_;
  bool drawn_ = false;
  std::size_t last_done_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace dse
