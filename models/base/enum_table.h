// The one name table of a closed set (an enum): its names in config files and outputs, and the
// reading and writing of them, so every closed set lists its valid names the same way.
//
//   inline constexpr EnumTable<Schedule, 2> kScheduleNames{{{
//       {Schedule::single_stream, "single_stream"}, {Schedule::stream_per_model, "stream_per_model"}}}};
//   kScheduleNames.name(Schedule::single_stream)   // "single_stream"
//   read_enum(node, "policy", kScheduleNames, "a schedule policy", Schedule::single_stream)  // sim/config
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dse {

template <class Enum, std::size_t N>
struct EnumTable {
  std::array<std::pair<Enum, std::string_view>, N> entries;

  std::string name(Enum value) const {
    for (const auto& [v, n] : entries)
      if (v == value) return std::string(n);
    return "unknown";
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& entry : entries) out.emplace_back(entry.second);
    return out;
  }
  std::optional<Enum> parse(std::string_view text) const {
    for (const auto& [v, n] : entries)
      if (n == text) return v;
    return std::nullopt;
  }
};

}  // namespace dse
