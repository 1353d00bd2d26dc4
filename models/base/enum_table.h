// The one name table of a closed set (an enum): its names in config files and outputs, and the
// reading and writing of them, so every closed set lists its valid names the same way. A value may
// have more than one entry (an alias): name() writes its first, parse() reads any, names() lists all.
//
//   inline constexpr EnumTable<DramType, 8> kDramTypeNames{{{{DramType::gddr5, "gddr5"}, ...}}};  // sim/gpu/gpu_spec.h
//   kDramTypeNames.name(DramType::gddr5)   // "gddr5"
//   read_enum(root, "memory_type", kDramTypeNames, "a DRAM technology")  // sim/config/config_node.h
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
