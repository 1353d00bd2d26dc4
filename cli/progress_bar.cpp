#include "cli/progress_bar.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>

namespace dse {

ProgressBar::ProgressBar(std::string label, std::size_t total, std::FILE* out)
    : ProgressBar(std::move(label), total, out, out != nullptr && ::isatty(::fileno(out)) == 1) {}

ProgressBar::ProgressBar(std::string label, std::size_t total, std::FILE* out, bool enabled)
    : label_(std::move(label)),
      total_(total),
      out_(out),
      enabled_(enabled && out != nullptr),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_ - std::chrono::seconds(1)) {}

ProgressBar::~ProgressBar() {
  if (drawn_) std::fputc('\n', out_);
}

std::string ProgressBar::render(std::string_view label, std::size_t done, std::size_t total, double elapsed_s,
                                int bar_width, std::string_view note) {
  const double fraction = total == 0 ? 1.0 : std::min(1.0, static_cast<double>(done) / static_cast<double>(total));
  const int filled = static_cast<int>(fraction * bar_width);
  std::string bar(static_cast<std::size_t>(filled), '=');
  if (filled < bar_width) bar += '>';
  bar.resize(static_cast<std::size_t>(bar_width), ' ');
  const double rate = elapsed_s > 0 ? static_cast<double>(done) / elapsed_s : 0.0;
  std::string eta = "ETA --";
  if (done >= total) {
    eta = fmt::format("in {:.1f}s", elapsed_s);
  } else if (rate > 0) {
    eta = fmt::format("ETA {:.1f}s", static_cast<double>(total - done) / rate);
  }
  std::string line =
      fmt::format("{} {}/{} [{}] {:3.0f}% {:.1f}/s {}", label, done, total, bar, 100 * fraction, rate, eta);
  if (!note.empty()) line += fmt::format("  {}", note);
  return line;
}

void ProgressBar::draw(std::size_t done, std::string_view note) {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::fprintf(out_, "\r\033[K%s", render(label_, done, total_, elapsed, 30, note).c_str());
  std::fflush(out_);
  drawn_ = true;
}

void ProgressBar::update(std::size_t done, std::string_view note) {
  last_done_ = done;
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  draw(done, note);
}

void ProgressBar::finish(std::string_view note) {
  if (!enabled_) return;
  draw(last_done_, note);
  std::fputc('\n', out_);
  drawn_ = false;
}

}  // namespace dse
