// The inputs `dse merge` reads before it reads any trial: each shard's place and resolved config,
// from the header of its journal (beside its result file), and the set of shards given, which must
// be every shard of one split of one search, each once. The journals' trials are read with
// read_journal_trials (search/journal.h). Kept apart from the command so the fuzzer
// (tests/fuzz/fuzz_merge.cpp) calls what the command calls.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dse {

struct MergeShard {
  std::string file;     // as given
  std::string journal;  // its journal
  nlohmann::json header;
  std::int64_t index = 0;
  std::int64_t count = 1;
};

// The journal of a shard given as `file`: `file` itself where it names one, else the one beside it.
std::string shard_journal_path(const std::string& file);

// The shard whose journal header (read_search_journal_header) is `header`; UserError at the
// journal's line 1 for the header of a search run whole or a place outside 0 <= K < N <= kMaxShards.
MergeShard shard_from_header(const std::string& file, const std::string& journal, nlohmann::json header);

// The shards by index; UserError for shards of different experiments or splits and for a shard
// given twice, naming both files.
std::map<std::int64_t, const MergeShard*> shards_by_index(const std::vector<MergeShard>& shards);

// UserError unless every shard of the split is in `by_index`, naming the first 20 missing (their
// files beside `output_path`, "?" where the search writes none) and counting the rest.
void check_no_shard_missing(const std::map<std::int64_t, const MergeShard*>& by_index, std::int64_t count,
                            const std::string& output_path, const std::string& config_file);

}  // namespace dse
