#include "search/merge_inputs.h"

#include <fmt/format.h>

#include <sstream>
#include <utility>

#include "models/base/errors.h"
#include "search/search_output.h"
#include "search/search_run.h"

namespace dse {
namespace {

// The first line where two texts differ, for the error about shards of different configs.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream in_a(a), in_b(b);
  std::string line_a, line_b;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(in_a, line_a));
    const bool more_b = static_cast<bool>(std::getline(in_b, line_b));
    if (!more_a && !more_b) return "";
    if (!more_a || !more_b || line_a != line_b)
      return fmt::format("line {} of their resolved configs: '{}' against '{}'", line, more_a ? line_a : "",
                         more_b ? line_b : "");
  }
}

}  // namespace

std::string shard_journal_path(const std::string& file) {
  const std::string suffix = ".journal.jsonl";
  const bool is_journal =
      file.size() > suffix.size() && file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0;
  return is_journal ? file : sibling_path(file, suffix);
}

MergeShard shard_from_header(const std::string& file, const std::string& journal, nlohmann::json header) {
  MergeShard shard;
  shard.file = file;
  shard.journal = journal;
  shard.header = std::move(header);
  const auto& h = shard.header;
  if (!h.contains("shard") || !h["shard"].is_number_integer() || !h.contains("shards") ||
      !h["shards"].is_number_integer() || !h.contains("config") || !h["config"].is_string() ||
      !h.contains("config_file") || !h["config_file"].is_string())
    throw UserError(shard.journal +
                    ":1: expected the journal of a shard (dse run --shard K/N), found one of a "
                    "search run whole");
  shard.index = h["shard"].get<std::int64_t>();
  shard.count = h["shards"].get<std::int64_t>();
  if (shard.count < 1 || shard.index < 0 || shard.index >= shard.count)
    throw UserError(fmt::format("{}:1: expected a shard K of N with 0 <= K < N, found {}/{}", shard.journal,
                                shard.index, shard.count));
  if (shard.count > kMaxShards)
    throw UserError(fmt::format("{}:1: expected a shard of at most {} (dse run --shard's limit), found {}/{}",
                                shard.journal, kMaxShards, shard.index, shard.count));
  return shard;
}

std::map<std::int64_t, const MergeShard*> shards_by_index(const std::vector<MergeShard>& shards) {
  std::map<std::int64_t, const MergeShard*> by_index;
  const MergeShard& first = shards.front();
  for (const auto& shard : shards) {
    if (shard.header["config"] != first.header["config"])
      throw UserError(fmt::format(
          "{} and {}: shards of different experiments ({}); expected the shards of one search", first.file, shard.file,
          first_difference(first.header["config"].get<std::string>(), shard.header["config"].get<std::string>())));
    if (shard.count != first.count)
      throw UserError(fmt::format("{} is shard {}/{} and {} is shard {}/{}: expected the shards of one split",
                                  first.file, first.index, first.count, shard.file, shard.index, shard.count));
    if (const auto [it, added] = by_index.emplace(shard.index, &shard); !added)
      throw UserError(fmt::format("{} and {} are both shard {}/{}: expected each shard once", it->second->file,
                                  shard.file, shard.index, shard.count));
  }
  return by_index;
}

void check_no_shard_missing(const std::map<std::int64_t, const MergeShard*>& by_index, std::int64_t count,
                            const std::string& output_path, const std::string& config_file) {
  if (static_cast<std::int64_t>(by_index.size()) == count) return;
  // The first few by name, then how many more.
  constexpr int kNamed = 20;
  std::string missing;
  std::int64_t unnamed = 0;
  int named = 0;
  for (std::int64_t k = 0; k < count; ++k) {
    if (by_index.contains(k)) continue;
    if (named == kNamed) {
      ++unnamed;
      continue;
    }
    ++named;
    missing +=
        fmt::format("{}{}/{} ({})", missing.empty() ? "" : ", ", k, count,
                    output_path.empty() ? std::string("?")
                                        : sibling_path(output_path, fmt::format(".shard-{}-of-{}.h5", k, count)));
  }
  if (unnamed) missing += fmt::format(" and {} more", unnamed);
  throw UserError(fmt::format("missing shards {}: expected all {} shards of the search (dse run {} --shard K/{})",
                              missing, count, config_file, count));
}

}  // namespace dse
