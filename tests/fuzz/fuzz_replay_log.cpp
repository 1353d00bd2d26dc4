// A recorded serving run (the BatchDVFS paper's CSV logs) replayed through every governor dse has,
// as `dse replay FILE --governor NAME` does. Leading lines of the input may give the command's
// options, one a line ("-p KEY=VALUE", "--clock-levels A,B,...", "--initial-clock MHZ",
// "--max-batch N"); the rest is the log. A replay is bounded by the input's size (libFuzzer's
// -max_len) and must end within its -timeout: rows inside one long period (-p period_s=3600) once
// made it cubic in them.
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "sim/serving/governor_replay.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

constexpr int kOptionLines = 8;

double number(std::string_view text) { return std::strtod(std::string(text).c_str(), nullptr); }
long long integer(std::string_view text) { return std::strtoll(std::string(text).c_str(), nullptr, 10); }

// The options the input's leading lines give; `text` is left at the first line that gives none.
dse::ReplayOptions read_options(std::string_view& text) {
  dse::ReplayOptions options;
  for (int i = 0; i < kOptionLines; ++i) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, end);
    const auto value = [&](std::string_view flag) {
      return line.starts_with(flag) ? std::optional(line.substr(flag.size())) : std::nullopt;
    };
    if (const auto v = value("-p ")) {
      options.assignments.emplace_back(*v);
    } else if (const auto v = value("--clock-levels ")) {
      for (std::size_t start = 0; start <= v->size();) {
        const std::size_t comma = std::min(v->find(',', start), v->size());
        options.clock_levels_mhz.push_back(number(v->substr(start, comma - start)));
        start = comma + 1;
      }
    } else if (const auto v = value("--initial-clock ")) {
      options.initial_clock_mhz = number(*v);
    } else if (const auto v = value("--max-batch ")) {
      // The command refuses a --max-batch outside [1, 65536] before it replays.
      options.max_batch = static_cast<int>(std::clamp(integer(*v), 1LL, 65536LL));
    } else {
      break;
    }
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view log(reinterpret_cast<const char*>(data), size);
  dse::ReplayOptions options = read_options(log);
  const std::string& path = dse::fuzz::as_file(reinterpret_cast<const std::uint8_t*>(log.data()), log.size(), ".csv");
  for (const std::string& governor : dse::GovernorRegistry::instance().names()) {
    dse::fuzz::expect_result_or_user_error([&] {
      options.governor = governor;
      const dse::ReplayReport report = dse::replay_governor(path, options);
      // Each data row after the first is one step: a decision, an ambiguous one or a mismatch.
      const int steps = report.rows - 1;
      if (report.rows < 2 || report.transitions > steps || report.matched > report.transitions ||
          report.decisions + report.ambiguous > steps || static_cast<int>(report.mismatches.size()) > report.rows ||
          !(report.power_cap_w > 0))
        __builtin_trap();
    });
  }
  return 0;
}
