#include "sim/runtime/schedule.h"

#include <array>
#include <utility>

namespace dse {
namespace {

// The one name table of the enum.
constexpr std::array<std::pair<Schedule, std::string_view>, 2> kNames = {{
    {Schedule::single_stream, "single_stream"},
    {Schedule::stream_per_model, "stream_per_model"},
}};

}  // namespace

std::string schedule_name(Schedule schedule) {
  for (const auto& [value, name] : kNames)
    if (value == schedule) return std::string(name);
  return "unknown";
}

std::vector<std::string> schedule_names() {
  std::vector<std::string> names;
  for (const auto& [value, name] : kNames) names.emplace_back(name);
  return names;
}

std::optional<Schedule> parse_schedule(std::string_view text) {
  for (const auto& [value, name] : kNames)
    if (name == text) return value;
  return std::nullopt;
}

}  // namespace dse
