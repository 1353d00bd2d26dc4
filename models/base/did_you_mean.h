// Suggestions for misspelt names ("unknown model 'resnet5'; did you mean resnet50?").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dse {

// Edit distance between two strings: insertions, deletions, substitutions and transpositions of
// adjacent characters, each costing 1 (optimal string alignment).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The valid name closest to `wrong` if it is close enough to be a plausible typo: distance at most
// max(1, length/3), or `wrong` is a case-insensitive prefix/extension of it. Ties go to the first.
std::optional<std::string> closest_name(std::string_view wrong, const std::vector<std::string>& valid);

// Orders names with their digit runs compared as numbers: resnet18 < resnet50 < resnet101.
struct NaturalLess {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const;
};

// "a, b, c" — the valid names joined for an error message.
std::string join_names(const std::vector<std::string>& names, std::string_view separator = ", ");

// "; did you mean 'x'?" or "" when nothing is close.
std::string did_you_mean_suffix(std::string_view wrong, const std::vector<std::string>& valid);

}  // namespace dse
