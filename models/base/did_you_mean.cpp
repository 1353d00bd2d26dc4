#include "models/base/did_you_mean.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "models/base/cut_input.h"

namespace dse {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment: Levenshtein plus transposition of two adjacent characters, the
  // commonest typo ("fp61" for "fp16").
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
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
  // Ranked by distance, then by whether it is the edit distance itself rather than a prefix's
  // allowance: "a100_pcie40" is three edits from a100_pcie_40gb and only a prefix away from a10.
  std::pair<std::size_t, bool> best_rank{limit + 1, true};
  for (const auto& name : valid) {
    const std::string name_lower = lower(name);
    // The lengths' difference bounds the distance from below: past the limit it decides as the
    // distance would, without a table of a long input's length times the name's.
    const std::size_t length_gap =
        std::max(wrong_lower.size(), name_lower.size()) - std::min(wrong_lower.size(), name_lower.size());
    std::size_t distance = length_gap > limit ? length_gap : edit_distance(wrong_lower, name_lower);
    const bool prefix =
        !wrong_lower.empty() && (name_lower.starts_with(wrong_lower) || wrong_lower.starts_with(name_lower));
    const bool by_prefix = prefix && distance > limit;
    if (prefix && distance > 1) distance = std::min(distance, limit);
    const std::pair<std::size_t, bool> rank{distance, by_prefix};
    if (distance <= limit && rank < best_rank) {
      best_rank = rank;
      best = name;
    }
  }
  return best;
}

bool NaturalLess::operator()(std::string_view a, std::string_view b) const {
  std::size_t i = 0, j = 0;
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t i_end = i, j_end = j;
      while (i_end < a.size() && digit(a[i_end])) ++i_end;
      while (j_end < b.size() && digit(b[j_end])) ++j_end;
      std::string_view x = a.substr(i, i_end - i), y = b.substr(j, j_end - j);
      while (x.size() > 1 && x.front() == '0') x.remove_prefix(1);
      while (y.size() > 1 && y.front() == '0') y.remove_prefix(1);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = i_end;
      j = j_end;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j || (a.size() - i == b.size() - j && a < b);
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
  return best ? "; did you mean '" + cut_input(*best) + "'?" : std::string();
}

}  // namespace dse
