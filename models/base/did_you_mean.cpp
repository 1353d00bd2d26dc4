#include "models/base/did_you_mean.h"

#include <algorithm>
#include <cctype>

namespace dse {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitution});
      diagonal = above;
    }
  }
  return row[b.size()];
}

namespace {
std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}
}  // namespace

std::optional<std::string> closest_name(std::string_view wrong, const std::vector<std::string>& valid) {
  const std::string wrong_lower = lower(wrong);
  const std::size_t limit = std::max<std::size_t>(1, wrong.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  for (const auto& name : valid) {
    const std::string name_lower = lower(name);
    std::size_t distance = edit_distance(wrong_lower, name_lower);
    const bool prefix = !wrong_lower.empty() &&
                        (name_lower.starts_with(wrong_lower) || wrong_lower.starts_with(name_lower));
    if (prefix && distance > 1) distance = std::min(distance, limit);
    if (distance < best_distance) {
      best_distance = distance;
      best = name;
    }
  }
  return best;
}

std::string join_names(const std::vector<std::string>& names, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) out += separator;
    out += names[i];
  }
  return out;
}

std::string did_you_mean_suffix(std::string_view wrong, const std::vector<std::string>& valid) {
  const auto best = closest_name(wrong, valid);
  return best ? "; did you mean '" + *best + "'?" : std::string();
}

}  // namespace dse
