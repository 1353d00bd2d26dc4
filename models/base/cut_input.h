// Input text as an error message quotes it: cut to a line's worth, so that a 60 MB CSV cell or
// command-line value does not make a 60 MB message.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace dse {

inline constexpr std::size_t kQuotedInputBytes = 80;
inline constexpr std::size_t kQuotedInputNames = 32;

// `text` itself when it has at most 80 bytes; else its first 80 (not splitting a UTF-8 character)
// followed by "…(N bytes)", N the whole text's length.
inline std::string cut_input(std::string_view text) {
  if (text.size() <= kQuotedInputBytes) return std::string(text);
  std::size_t end = kQuotedInputBytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;  // inside a UTF-8 character
  return std::string(text.substr(0, end)) + "…(" + std::to_string(text.size()) + " bytes)";
}

// Names read from input joined with ", " (a CSV header's columns): each cut as above, the first 32
// of them and "…(N in all)" after.
inline std::string join_cut_input(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kQuotedInputNames; ++i) out += (i ? ", " : "") + cut_input(names[i]);
  if (names.size() > kQuotedInputNames) out += ", …(" + std::to_string(names.size()) + " in all)";
  return out;
}

}  // namespace dse
